export * from './connections.repository';
export * from './etsy-token-provider';
