export * from './sync-stream';
export * from './sync-errors';
export * from './sync-runner';
export * from './streams';
export * from './worker/sync-worker-kit.module';
export { MATCH_QUEUER, type MatchQueuer } from './worker/match-queuer';
