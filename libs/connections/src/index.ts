export * from './etsy-token-service';
export * from './etsy-token-service.factory';
