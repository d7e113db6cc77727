import { hostname } from 'node:os';

/** The worker services and their default health ports (HEALTH_PORT overrides). */
export const WORKER_HEALTH_PORTS = {
  'etsy-sync': 5101,
  'printify-sync': 5102,
  matcher: 5103,
  'fx-rate': 5104,
} as const;

export type WorkerService = keyof typeof WORKER_HEALTH_PORTS;

/** hostname:pid, unique per process across replicas; job results and events carry it. */
export function workerId(): string {
  return `${hostname()}:${process.pid}`;
}
