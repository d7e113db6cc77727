export * from './contract-processor';
export * from './ping-handler';
export * from './run-worker';
export * from './worker-identity';
export * from './health-report';
export * from './shutdown';
export * from './tokens';
export * from './shutdown-signal';
