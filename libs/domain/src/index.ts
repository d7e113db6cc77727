export * from './currency';
export * from './money';
export * from './money-format';
