/**
 * The load generator, run as its own process (the bench's main process samples /livez and the
 * gateway is a third): autocannon with keep-alive connections, each request carrying the next
 * seller's session cookie in turn. Reads its job as JSON from the BENCH_CANNON variable and
 * prints its summary as one JSON line.
 */
import autocannon from 'autocannon';

export interface CannonJob {
  baseUrl: string;
  /** Asked in turn on every connection. */
  paths: string[];
  /** Session cookies taken in turn, request by request (none: no cookie). */
  cookies: string[];
  connections: number;
  seconds: number;
}

export interface CannonResult {
  requests: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  non2xx: number;
  /** Socket errors, timeouts (10 s) included. */
  errors: number;
  statusCodes: Record<string, number>;
}

async function main(): Promise<void> {
  const job = JSON.parse(process.env.BENCH_CANNON ?? '') as CannonJob;
  let next = 0;
  const withCookie = (request: autocannon.Request): autocannon.Request => {
    if (job.cookies.length === 0) return request;
    const cookie = job.cookies[next++ % job.cookies.length];
    return { ...request, headers: { ...request.headers, cookie } };
  };
  const result = await autocannon({
    url: job.baseUrl,
    connections: job.connections,
    duration: job.seconds,
    pipelining: 1,
    timeout: 10,
    requests: job.paths.map((path) => ({ method: 'GET', path, setupRequest: withCookie })),
  });
  const codes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {}))
    codes[code] = (stats as { count: number }).count;
  const summary: CannonResult = {
    requests: result.requests.total,
    seconds: result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors,
    statusCodes: codes,
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
