export * from './currency';
export * from './money';
export * from './money-format';
export * from './fees';
export * from './profit';
export * from './matching';
export * from './exchange';
export * from './supported-dates';
