// Response shapes of the gateway's HTTP API: plain types only (no runtime code, no Node or
// Nest types), so that the web app can `import type` them from @pod/contracts.
export type * from './connections';
export type * from './users';
export type * from './public-config';
export type * from './demo';
export type * from './sync';
export type * from './orders';
export type * from './exchange-rate';
export type * from './matching';
export type * from './payouts';
export type * from './profit-settings';
export type * from './analytics';
