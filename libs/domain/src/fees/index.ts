export * from './estimate';
export * from './fee-kinds';
export * from './fee-schedule';
export * from './ledger-types';
export * from './rounding';
export * from './regulatory-fee';
export * from './vat-on-fees';
export * from './standard-vat-rates';
