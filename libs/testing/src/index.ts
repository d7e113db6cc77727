export * from './test-database';
export * from './processes';
export * from './test-stack';
export * from './redis-prefix';
