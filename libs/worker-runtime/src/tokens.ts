/** Injection tokens of the worker runtime. */
export const WORKER_LOGGER = Symbol('WORKER_LOGGER');
export const WORKER_OPTIONS = Symbol('WORKER_OPTIONS');
export const REDIS_PROBE = Symbol('REDIS_PROBE');
/** The process's ProcessMetrics (libs/observability). */
export const WORKER_METRICS = Symbol('WORKER_METRICS');
