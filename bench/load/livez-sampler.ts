import { Agent, get } from 'node:http';

export interface LivezSample {
  count: number;
  failures: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/**
 * GET /livez every `everyMs` on one keep-alive connection of its own, beside the load: the
 * latency an orchestrator's liveness probe would see meanwhile. A probe slower than 2 s or not
 * answering 200 is a failure.
 */
export class LivezSampler {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private latencies: number[] = [];
  private failures = 0;
  private running = false;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly baseUrl: string,
    private readonly everyMs: number,
  ) {}

  start(): void {
    this.latencies = [];
    this.failures = 0;
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        const started = performance.now();
        const ok = await this.probe();
        const ms = performance.now() - started;
        if (ok) this.latencies.push(ms);
        else this.failures += 1;
        await new Promise((done) => setTimeout(done, Math.max(0, this.everyMs - ms)));
      }
    })();
  }

  async stop(): Promise<LivezSample> {
    this.running = false;
    await this.loop;
    const sorted = [...this.latencies].sort((a, b) => a - b);
    const at = (q: number) =>
      sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN;
    return {
      count: sorted.length + this.failures,
      failures: this.failures,
      p50Ms: at(0.5),
      p99Ms: at(0.99),
      maxMs: sorted.at(-1) ?? NaN,
    };
  }

  close(): void {
    this.agent.destroy();
  }

  private probe(): Promise<boolean> {
    return new Promise((done) => {
      const request = get(`${this.baseUrl}/livez`, { agent: this.agent, timeout: 2_000 }, (response) => {
        response.resume();
        response.on('end', () => done(response.statusCode === 200));
        response.on('error', () => done(false));
      });
      request.on('timeout', () => request.destroy());
      request.on('error', () => done(false));
    });
  }
}
