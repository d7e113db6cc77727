export * from './payouts';
export * from './shop-costs';
export * from './unclassified-log';
export * from './labels';
