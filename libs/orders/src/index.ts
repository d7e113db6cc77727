export * from './user-matcher';
export * from './user-profits';
export * from './order-statistics';
export * from './shop-costs';
export * from './queue-match-run';
