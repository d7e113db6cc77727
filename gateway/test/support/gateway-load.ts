import { Agent, request } from 'node:http';

/** One answer of the gateway, or the transport error that stood for it. */
export interface LoadAnswer {
  status: number;
  body: string;
}

/** A response at or above 500, kept whole for the failure message. */
export interface ServerError {
  route: string;
  status: number;
  body: string;
}

/**
 * HTTP calls to a built gateway over at most `connections` keep-alive sockets, as a browser's
 * session cookie and same-origin headers would carry them, counting every status by route
 * ("GET /api/orders") so a test can say what the load was and what it got.
 */
export class GatewayLoad {
  private readonly agent: Agent;
  readonly statuses = new Map<string, Map<number, number>>();
  /** Milliseconds from sending to the whole answer, by route. */
  readonly durations = new Map<string, number[]>();
  readonly serverErrors: ServerError[] = [];
  readonly transportErrors: string[] = [];

  constructor(
    private readonly baseUrl: string,
    connections: number,
    private readonly timeoutMs = 30_000,
  ) {
    this.agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  }

  /** Sends one request and counts its answer under `route` (defaults to the method and path without the query). */
  async send(
    method: 'GET' | 'POST',
    path: string,
    cookie: string,
    body?: unknown,
    route?: string,
  ): Promise<LoadAnswer> {
    const label = route ?? `${method} ${path.split('?')[0]}`;
    const sent = Date.now();
    try {
      const answer = await this.exchange(method, path, cookie, body);
      this.durations.set(label, [...(this.durations.get(label) ?? []), Date.now() - sent]);
      this.count(label, answer.status);
      if (answer.status >= 500) this.serverErrors.push({ route: label, status: answer.status, body: answer.body });
      return answer;
    } catch (error) {
      this.count(label, 0);
      this.transportErrors.push(`${label}: ${error instanceof Error ? error.message : String(error)}`);
      return { status: 0, body: '' };
    }
  }

  /** How many answers had `status` (0: no answer), over every route or one. */
  total(predicate: (status: number) => boolean, route?: string): number {
    let sum = 0;
    for (const [label, counts] of this.statuses)
      if (route === undefined || label === route)
        for (const [status, count] of counts) if (predicate(status)) sum += count;
    return sum;
  }

  /** The counts as a plain object, for the test's log: { "GET /api/orders": { "200": 812 } }. */
  summary(): Record<string, Record<string, number>> {
    return Object.fromEntries(
      [...this.statuses].map(([label, counts]) => [label, Object.fromEntries([...counts].sort(([a], [b]) => a - b))]),
    );
  }

  /** Median and 99th percentile of each route's answer times, in ms. */
  latencies(): Record<string, { p50: number; p99: number }> {
    return Object.fromEntries(
      [...this.durations].map(([label, times]) => {
        const sorted = [...times].sort((a, b) => a - b);
        const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
        return [label, { p50: at(0.5), p99: at(0.99) }];
      }),
    );
  }

  close(): void {
    this.agent.destroy();
  }

  private count(label: string, status: number): void {
    const counts = this.statuses.get(label) ?? new Map<number, number>();
    counts.set(status, (counts.get(status) ?? 0) + 1);
    this.statuses.set(label, counts);
  }

  private exchange(method: string, path: string, cookie: string, body?: unknown): Promise<LoadAnswer> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const outgoing = request(
        `${this.baseUrl}${path}`,
        {
          method,
          agent: this.agent,
          timeout: this.timeoutMs,
          headers: {
            cookie,
            accept: 'application/json',
            // What a same-origin fetch of the web app carries (the gateway's CSRF checks).
            origin: this.baseUrl,
            'sec-fetch-site': 'same-origin',
            ...(payload === undefined
              ? {}
              : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }),
          },
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('end', () =>
            resolve({ status: incoming.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
          );
          incoming.on('error', reject);
        },
      );
      outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${this.timeoutMs} ms`)));
      outgoing.on('error', reject);
      outgoing.end(payload);
    });
  }
}
