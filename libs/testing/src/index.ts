export * from './test-database';
export * from './processes';
export * from './test-stack';
export * from './redis-prefix';
export * from './synced-order-fixtures';
export * from './profit-order-fixtures';
export * from './dashboard-rollup';
