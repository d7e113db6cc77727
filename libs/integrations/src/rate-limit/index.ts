export * from './limiter';
export * from './redis-limiter';
export * from './wait-hook';
