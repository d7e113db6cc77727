export * from './sync-stream';
