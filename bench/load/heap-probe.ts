import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

/** Node options that load the probe into a process of the stack (see heap-probe-preload.ts). */
export const HEAP_PROBE_NODE_ARGS = ['--expose-gc', '--require', resolve(__dirname, 'heap-probe-preload.js')];

/** What a process holds right after a full garbage collection, in bytes. */
export interface LiveMemory {
  /** V8 heap objects still reachable. */
  heapUsed: number;
  /** Memory of Buffers and other C++ objects tied to JS objects (outside the V8 heap). */
  external: number;
}

const PROBE_TIMEOUT_MS = 30_000;

/** The bench's side of the probe: requests over the child's IPC channel, answered by the preload. */
export class HeapProbe {
  private nextId = 0;

  constructor(private readonly child: ChildProcess) {}

  /** Heap and external memory after a full collection; NaN when the process does not answer. */
  async live(): Promise<LiveMemory> {
    const answer = await this.ask({ kind: 'live' });
    const collected = answer?.collected === true;
    return {
      heapUsed: collected && typeof answer?.heapUsed === 'number' ? answer.heapUsed : NaN,
      external: collected && typeof answer?.external === 'number' ? answer.external : NaN,
    };
  }

  /** Writes a heap snapshot to `path`; resolves with the file written, or null. */
  async snapshot(path: string): Promise<string | null> {
    const answer = await this.ask({ kind: 'snapshot', path }, 120_000);
    return typeof answer?.file === 'string' ? answer.file : null;
  }

  private ask(request: { kind: string; path?: string }, timeoutMs = PROBE_TIMEOUT_MS) {
    const id = ++this.nextId;
    return new Promise<Record<string, unknown> | null>((done) => {
      if (!this.child.connected) return done(null);
      const onMessage = (message: unknown) => {
        if ((message as { id?: number } | null)?.id !== id) return;
        finish(message as Record<string, unknown>);
      };
      const timer = setTimeout(() => finish(null), timeoutMs);
      const finish = (answer: Record<string, unknown> | null) => {
        clearTimeout(timer);
        this.child.off('message', onMessage);
        done(answer);
      };
      this.child.on('message', onMessage);
      this.child.send({ id, ...request }, (error) => error && finish(null));
    });
  }
}
