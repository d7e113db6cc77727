import { spawn } from 'node:child_process';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { cpuMsOf, hostileBodies, percentile } from './hostile-bodies';

export interface RouteRef {
  method: string;
  url: string;
}

export interface BodyCost {
  route: string;
  body: string;
  bytes: number;
  statusCode: number;
  replyBytes: number;
  cpuMs: number;
}

/** Route parameters that reach the handler (a real queue, a real service), so its pipes and validation run. */
const concretePath = (url: string) => url.replace(':queue', 'matcher').replace(':service', 'etsy').replace(':id', '1');
/** Signing out ends the session the sweep uses: it goes last. */
const signOutLast = (a: RouteRef, b: RouteRef) =>
  Number(a.url === '/api/auth/logout') - Number(b.url === '/api/auth/logout');

export interface SweepOptions {
  /** Measurements of each body; its cost is the cheapest. */
  runs?: number;
  /**
   * A body whose cheapest run is still at or above this many ms is measured again, after a
   * pause, up to `maxRuns` in all. process.cpuUsage counts every thread of the process, so a
   * concurrent collector cycle (V8 marks on helper threads for hundreds of ms) can land on
   * three runs in a row; it does not last for a dozen spaced ones, while a body that really
   * costs that much does, and still fails.
   */
  recheckAboveMs?: number;
  maxRuns?: number;
}

const RECHECK_PAUSE_MS = 150;

/**
 * Every hostile body to every route, through the whole stack in process; each cost is the
 * cheapest of its runs (the body's own cost, without a collector pause or a neighbour's load).
 */
export async function sweepHostileBodies(
  app: NestFastifyApplication,
  routes: RouteRef[],
  headers: Record<string, string>,
  options: SweepOptions = {},
): Promise<BodyCost[]> {
  const { runs = 3, recheckAboveMs = Infinity, maxRuns = 12 } = options;
  const costs: BodyCost[] = [];
  for (const { method, url } of [...routes].sort(signOutLast)) {
    for (const { label, payload } of hostileBodies()) {
      const send = () => app.inject({ method: method as 'POST', url: concretePath(url), headers, payload });
      let cpuMs = Infinity;
      let response!: Awaited<ReturnType<typeof send>>;
      for (let run = 0; run < maxRuns && (run < runs || cpuMs >= recheckAboveMs); run += 1) {
        if (run >= runs) await new Promise((resolve) => setTimeout(resolve, RECHECK_PAUSE_MS));
        const measured = await cpuMsOf(send);
        response = measured.result;
        cpuMs = Math.min(cpuMs, measured.cpuMs);
      }
      costs.push({
        route: `${method} ${url}`,
        body: label,
        bytes: payload.length,
        statusCode: response.statusCode,
        replyBytes: response.body.length,
        cpuMs,
      });
    }
  }
  return costs;
}

export interface LivezLatency {
  samples: number;
  /** Wall time of each probe: what a caller sees, inflated by anything else the machine runs. */
  wall: { p50: number; p99: number; max: number };
  /**
   * CPU time this process spent while each probe was outstanding: the work the event loop did
   * before it could answer, which a busy neighbour on the machine does not inflate.
   */
  cpu: { p50: number; p99: number; max: number };
}

/**
 * The attackers run in a child process: their own work (building and writing bodies) then
 * does not count against the gateway, as it would not if they were other machines.
 */
const ATTACKER_SOURCE = `
let attacking = true;
process.on('message', (message) => {
  if (message === 'stop') { attacking = false; return; }
  const { url, headers, connections, ratePerSecond, bodies } = message;
  const gapMs = ratePerSecond ? (1000 * connections) / ratePerSecond : 0;
  const attack = async (offset) => {
    for (let i = offset; attacking; i += 1) {
      const next = Date.now() + gapMs;
      await fetch(url, { method: 'POST', headers, body: bodies[i % bodies.length] }).then((r) => r.arrayBuffer()).catch(() => undefined);
      if (gapMs) await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now())));
    }
  };
  Promise.all(Array.from({ length: connections }, (_, i) => attack(i * 7))).then(() => process.exit(0));
  process.send('started');
});
`;

export interface HostileTraffic {
  /** Connections sending hostile bodies (none when 0). */
  attackers: number;
  /** Bodies per second over all connections; 0 sends each as soon as the last was answered. */
  ratePerSecond: number;
  attackPath: string;
  samples: number;
  headers: Record<string, string>;
}

/** /livez latency over real HTTP, one probe every 10 ms, while hostile bodies arrive. */
export async function livezUnderHostileBodies(baseUrl: string, options: HostileTraffic): Promise<LivezLatency> {
  const attackers = options.attackers > 0 ? await startAttackers(baseUrl, options) : undefined;
  const wall: number[] = [];
  const cpu: number[] = [];
  try {
    for (let i = 0; i < options.samples; i += 1) {
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      const response = await fetch(`${baseUrl}/livez`);
      await response.arrayBuffer();
      wall.push(performance.now() - started);
      const spent = process.cpuUsage(cpuBefore);
      cpu.push((spent.user + spent.system) / 1000);
      if (response.status !== 200) throw new Error(`/livez answered ${response.status}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    await attackers?.stop();
  }
  const summary = (values: number[]) => ({
    p50: percentile(values, 50),
    p99: percentile(values, 99),
    max: Math.max(...values),
  });
  return { samples: wall.length, wall: summary(wall), cpu: summary(cpu) };
}

async function startAttackers(baseUrl: string, options: HostileTraffic): Promise<{ stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['-e', ATTACKER_SOURCE], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const started = new Promise<void>((resolve) => child.once('message', () => resolve()));
  child.send({
    url: `${baseUrl}${options.attackPath}`,
    headers: options.headers,
    connections: options.attackers,
    ratePerSecond: options.ratePerSecond,
    bodies: hostileBodies().map((b) => b.payload),
  });
  await started;
  // Let the first bodies arrive before probing.
  await new Promise((resolve) => setTimeout(resolve, 200));
  return {
    stop: async () => {
      child.send('stop');
      const killer = setTimeout(() => child.kill(), 5_000);
      await exited;
      clearTimeout(killer);
    },
  };
}
