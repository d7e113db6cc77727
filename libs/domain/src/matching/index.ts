export * from './types';
export * from './similarity';
export * from './score';
export * from './describe-record';
export * from './engine';
export * from './plan';
export * from './candidates';
export * from './side-order';
