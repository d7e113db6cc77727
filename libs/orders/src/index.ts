export * from './user-matcher';
export * from './user-profits';
export * from './order-statistics';
