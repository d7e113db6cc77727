export * from './queues';
export * from './providers';
export * from './provider-messages';
export * from './events';
export * from './admin-queues';
export type * from './api';
export * from './passwords';
export * from './api-errors';
export * from './sync';
