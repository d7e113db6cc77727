export * from './currency';
export * from './money';
export * from './fees';
export * from './profit';
export * from './matching';
export * from './exchange';
