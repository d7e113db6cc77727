export * from './data-source';
export * from './prepare-database';
export * from './entities';
export * from './repositories';
export * from './columns';
export * from './runtime-role';
export * from './migrations/release';
