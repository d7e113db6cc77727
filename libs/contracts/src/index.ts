export * from './queues';
export * from './events';
export * from './admin-queues';
export type * from './api';
export * from './passwords';
