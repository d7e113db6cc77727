export * from './job-spec';
export * from './queue-contracts';
export * from './worker-options';
export * from './redis-connection';
export * from './events-transport';
export * from './domain-events';
export * from './timing';
export * from './schedules';
