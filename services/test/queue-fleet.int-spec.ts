import { startTestStack, TEST_OPERATOR_TOKEN, type TestStack } from '@pod/testing';
import {
  completedJobIds,
  deleteRedisPrefix,
  ensureBuilt,
  pollUntil,
  readHealth,
  startWorker,
  stopAndTime,
  waitForHttp,
  WORKERS,
  type WorkerName,
  type WorkerProcess,
} from './support/fleet';

/**
 * The built gateway and the four built workers as separate OS processes, on a fresh database
 * and Redis prefix: operator pings travel gateway → Redis → worker → job.completed event →
 * gateway; a second replica shares a queue without running any job twice; SIGTERM stops a
 * worker cleanly within its bound.
 */
jest.setTimeout(180_000);

const SHUTDOWN_TIMEOUT_MS = 5_000;
const auth = { authorization: `Bearer ${TEST_OPERATOR_TOKEN}` };

interface JobView {
  id: string;
  name: string;
  state: string;
  result: { queue: string; worker: string; completedAt: string } | null;
  attemptsMade: number;
  finishedOn: number | null;
}

describe('queues and workers across processes', () => {
  let stack: TestStack;
  const workers = new Map<WorkerName, WorkerProcess>();
  const extra: WorkerProcess[] = [];

  const workerEnv = () => ({
    DATABASE_URL: stack.database.url,
    REDIS_PREFIX: stack.redisPrefix,
    SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
  });

  async function api<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const response = await fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(5_000),
    });
    return { status: response.status, body: (await response.json()) as T };
  }

  async function enqueuePing(queue: WorkerName): Promise<string> {
    const { status, body } = await api<{ id: string; queue: string; name: string }>(
      'POST',
      `/api/admin/queues/${queue}/jobs`,
      { name: 'ping' },
    );
    expect(status).toBe(202);
    expect(body).toMatchObject({ queue, name: 'ping' });
    return body.id;
  }

  function completedJob(queue: WorkerName, id: string): Promise<JobView> {
    return pollUntil(`job ${queue}/${id} completed`, async () => {
      const { status, body } = await api<JobView>('GET', `/api/admin/queues/${queue}/jobs/${id}`);
      if (status !== 200) throw new Error(`status ${status}`);
      if (body.state === 'failed') throw new Error(`job failed: ${JSON.stringify(body)}`);
      return body.state === 'completed' ? body : undefined;
    });
  }

  beforeAll(async () => {
    ensureBuilt();
    stack = await startTestStack();
    for (const name of WORKERS) workers.set(name, await startWorker(name, workerEnv()));
    for (const worker of workers.values()) await waitForHttp(worker.healthUrl, { process: worker, timeoutMs: 60_000 });
  });

  afterAll(async () => {
    await Promise.all([...workers.values(), ...extra].map((worker) => worker.stop('SIGTERM', 15_000)));
    if (stack) {
      await stack.stop();
      await deleteRedisPrefix(stack.redisPrefix);
    }
  });

  it('each worker reports healthy, with PostgreSQL, Redis and its queue checked', async () => {
    for (const [name, worker] of workers) {
      const { status, body } = await readHealth(worker);
      expect(status).toBe(200);
      expect(body).toMatchObject({
        status: 'ok',
        service: name,
        checks: { postgres: { status: 'up' }, redis: { status: 'up' }, queue: { name, running: true, paused: false } },
      });
      expect(body.checks.queue.concurrency).toBeGreaterThanOrEqual(1);
    }
  });

  it('binds each health endpoint to loopback unless HEALTH_HOST says otherwise', async () => {
    // The bound address as the OS reports it (the worker logs server.address()).
    const boundHosts = (worker: { logs(): string }) =>
      worker
        .logs()
        .split('\n')
        .filter((line) => line.includes('"worker.health_listening"'))
        .map((line) => (JSON.parse(line) as { host: string }).host);
    for (const worker of workers.values()) expect(boundHosts(worker)).toEqual(['127.0.0.1']);
    const open = await startWorker('fx-rate', { ...workerEnv(), HEALTH_HOST: '0.0.0.0' });
    try {
      await waitForHttp(open.healthUrl, { process: open, timeoutMs: 60_000 });
      expect(boundHosts(open)).toEqual(['0.0.0.0']);
    } finally {
      // Gone before the replica tests count the fx-rate consumers.
      await open.stop('SIGTERM', 15_000);
    }
  });

  it('runs a ping enqueued through the gateway on every queue, and the gateway hears job.completed', async () => {
    for (const [queue, worker] of workers) {
      const id = await enqueuePing(queue);
      const job = await completedJob(queue, id);
      expect(job).toMatchObject({ id, name: 'ping', state: 'completed', attemptsMade: 1 });
      expect(job.result?.queue).toBe(queue);
      expect(job.result?.worker).toMatch(new RegExp(`:${worker.child.pid}$`));
      expect(job.finishedOn).toEqual(expect.any(Number));

      const overview = await pollUntil(`job.completed for ${queue}/${id} heard by the gateway`, async () => {
        const { body } = await api<
          Array<{ name: string; workers: number; lastCompletedEvent: { jobId: string; worker: string } | null }>
        >('GET', '/api/admin/queues');
        const row = body.find((q) => q.name === queue);
        return row?.lastCompletedEvent?.jobId === id ? row : undefined;
      });
      expect(overview.lastCompletedEvent?.worker).toBe(job.result?.worker);
      expect(overview.workers).toBeGreaterThanOrEqual(1);
    }
  });

  it('lists every queue with its counts for the operator', async () => {
    const { status, body } = await api<Array<{ name: string; counts: Record<string, number>; isPaused: boolean }>>(
      'GET',
      '/api/admin/queues',
    );
    expect(status).toBe(200);
    // The worker processes' queues, and `maintenance`, which the gateway itself consumes.
    expect(body.map((q) => q.name).sort()).toEqual([...WORKERS, 'maintenance'].sort());
    for (const queue of body) {
      expect(Object.keys(queue.counts).sort()).toEqual([
        'active',
        'completed',
        'delayed',
        'failed',
        'paused',
        'waiting',
      ]);
      if (queue.name !== 'maintenance') expect(queue.counts.completed).toBeGreaterThanOrEqual(1);
      expect(queue.isPaused).toBe(false);
    }
  });

  it('holds jobs while a queue is paused and runs them once resumed', async () => {
    expect((await api('POST', '/api/admin/queues/matcher/pause')).body).toEqual({ queue: 'matcher', isPaused: true });
    const id = await enqueuePing('matcher');
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await api<JobView>('GET', `/api/admin/queues/matcher/jobs/${id}`)).body.state).not.toBe('completed');
    expect((await api('POST', '/api/admin/queues/matcher/resume')).body).toEqual({ queue: 'matcher', isPaused: false });
    await completedJob('matcher', id);
  });

  it('shares a queue between two replicas without running a job twice', async () => {
    const first = workers.get('fx-rate') as WorkerProcess;
    const second = await startWorker('fx-rate', { ...workerEnv(), WORKER_CONCURRENCY: '1' });
    extra.push(second);
    await waitForHttp(second.healthUrl, { process: second, timeoutMs: 60_000 });

    const ids: string[] = [];
    for (let batch = 0; batch < 4; batch += 1) {
      ids.push(...(await Promise.all(Array.from({ length: 10 }, () => enqueuePing('fx-rate')))));
    }
    expect(new Set(ids).size).toBe(40);
    const jobs = await Promise.all(ids.map((id) => completedJob('fx-rate', id)));

    const byWorker = new Map<string, number>();
    for (const job of jobs) byWorker.set(job.result?.worker ?? '?', (byWorker.get(job.result?.worker ?? '?') ?? 0) + 1);
    const pids = [...byWorker.keys()].map((worker) => Number(worker.split(':').pop()));
    expect(pids.sort()).toEqual([first.child.pid, second.child.pid].sort());
    expect(jobs.every((job) => job.attemptsMade === 1)).toBe(true);

    // Exactly once: across both replicas' logs, each of the 40 ids completed once.
    const logged = [...completedJobIds(first), ...completedJobIds(second)].filter((id) => ids.includes(id));
    expect(logged.sort()).toEqual([...ids].sort());
  });

  it('stops a worker on SIGTERM with exit code 0 within its bound', async () => {
    const replica = extra[0];
    const { code, signal, elapsedMs } = await stopAndTime(replica, 'SIGTERM');
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(elapsedMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    expect(replica.logs()).toContain('"event":"worker.closed"');
  });
});
