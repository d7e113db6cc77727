export * from './logger';
export * from './redact';
export * from './metrics';
