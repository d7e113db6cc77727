// Test oracles and stand-ins with no I/O (so unit tests, libs/domain's too, import them as
// @pod/testing/oracles without the database and process helpers of @pod/testing).
export * from './convert-many';
export * from './memory-limiter';
export * from './profit-totals';
