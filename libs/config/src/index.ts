export * from './app-config';
export * from './load-config';
export * from './derived-keys';
export * from './providers';
export * from './network-settings';
export * from './webhook-settings';
export * from './token-keys';
