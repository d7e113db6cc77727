export * from './token-cipher';
