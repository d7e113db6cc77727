/**
 * Aborted when the worker process begins its graceful shutdown, before BullMQ's worker is
 * closed: long jobs (a sync walking pages) stop after the page they are committing and hand
 * their job back to the queue, so `close()` (which waits for active jobs) returns quickly.
 */
const controller = new AbortController();

export const workerShutdownSignal: AbortSignal = controller.signal;

export function beginWorkerShutdown(): void {
  if (!controller.signal.aborted) controller.abort(new Error('worker shutting down'));
}
