export * from './windows';
export * from './rows';
export * from './etsy-receipts-stream';
export * from './etsy-ledger-stream';
export * from './printify-orders-stream';
export * from './refresh';
