/**
 * Loaded ahead of each process of the load bench's stack (`node --expose-gc --require …`), never
 * by production code. Over the IPC channel the bench opens, it answers two requests:
 * - `live`: runs a full garbage collection, then reports `process.memoryUsage()`. V8 lets its heap
 *   grow towards a size it picks from the allocation rate, so `heapUsed` between collections
 *   holds garbage whose amount depends on when the last collection ran; after a full collection it
 *   is what the process still holds, the measure a leak grows (see docs/adr/0022-load-bench.md).
 * - `snapshot`: writes a heap snapshot to the given path (to compare two with DevTools' Memory tab).
 */
import { writeHeapSnapshot } from 'node:v8';

interface ProbeRequest {
  id: number;
  kind: 'live' | 'snapshot';
  path?: string;
}

const collect = (globalThis as { gc?: () => void }).gc;

if (process.send) {
  process.on('message', (request: ProbeRequest) => {
    if (request.kind === 'live') {
      collect?.();
      const usage = process.memoryUsage();
      process.send?.({ id: request.id, collected: Boolean(collect), ...usage });
    } else if (request.kind === 'snapshot' && request.path) {
      process.send?.({ id: request.id, file: writeHeapSnapshot(request.path) });
    }
  });
  // The channel must not keep the process alive: it exits on SIGTERM as it would without the probe.
  process.channel?.unref();
}
