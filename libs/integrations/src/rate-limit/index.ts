export * from './limiter';
export * from './memory-limiter';
export * from './redis-limiter';
export * from './wait-hook';
