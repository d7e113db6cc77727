export * from './currency';
export * from './money';
export * from './exchange';
