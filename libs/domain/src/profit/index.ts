export * from './components';
export * from './converter';
export * from './inputs';
export * from './margin';
export * from './order-profit';
export * from './revenue';
export * from './totals';
