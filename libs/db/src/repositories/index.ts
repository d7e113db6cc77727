export * from './etsy-tokens.repository';
