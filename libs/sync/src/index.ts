export * from './sync-stream';
export * from './sync-errors';
export * from './sync-runner';
