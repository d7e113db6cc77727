export * from './money-columns';
