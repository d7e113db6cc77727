export * from './data-source';
export * from './prepare-database';
export * from './bigint-transformer';
export * from './entities';
