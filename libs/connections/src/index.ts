export * from './connections.repository';
export * from './etsy-token-provider';
export * from './etsy-token-service.factory';
