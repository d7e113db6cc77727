import { Worker } from 'bullmq';
import { contractOf } from '@pod/queue';
import { applyWorkerTuning, workerTuning } from './worker-tuning';

const contract = contractOf('matcher').worker; // lockDuration 60 s, stalledInterval 30 s, maxStalledCount 1

/**
 * A BullMQ Worker as @nestjs/bullmq leaves it before run(): BullMQ's own prototype and options,
 * without the constructor's Redis connection.
 */
function pausedWorker(): Worker {
  const opts = {
    lockDuration: contract.lockDuration,
    lockRenewTime: contract.lockDuration / 2,
    stalledInterval: contract.stalledInterval,
    maxStalledCount: contract.maxStalledCount,
  };
  const worker = Object.assign(Object.create(Worker.prototype) as Worker, { name: 'matcher', opts, running: false });
  (worker as unknown as { createLockManager(): void }).createLockManager();
  return worker;
}

const lockManagerOf = (worker: Worker) =>
  (worker as unknown as { lockManager: { opts: { lockDuration: number; lockRenewTime: number } } }).lockManager;

describe('worker tuning', () => {
  it('keeps the queue contract values when nothing is set', () => {
    expect(workerTuning(contract, {})).toEqual({ lockDuration: 60_000, stalledInterval: 30_000, maxStalledCount: 1 });
  });

  it('applies WORKER_LOCK_DURATION_MS, WORKER_STALLED_INTERVAL_MS and WORKER_MAX_STALLED_COUNT on top of the contract', () => {
    const worker = pausedWorker();
    applyWorkerTuning(worker, contract, {
      WORKER_LOCK_DURATION_MS: 120_000,
      WORKER_STALLED_INTERVAL_MS: 15_000,
      WORKER_MAX_STALLED_COUNT: 0,
    });
    expect(worker.opts).toMatchObject({
      lockDuration: 120_000,
      lockRenewTime: 60_000,
      stalledInterval: 15_000,
      maxStalledCount: 0,
    });
    // The lock manager renews and extends locks with what it copied when built: it must have the new lock.
    expect(lockManagerOf(worker).opts).toMatchObject({ lockDuration: 120_000, lockRenewTime: 60_000 });
  });

  it('changes only what is set', () => {
    const worker = pausedWorker();
    const lockManager = lockManagerOf(worker);
    applyWorkerTuning(worker, contract, { WORKER_MAX_STALLED_COUNT: 3 });
    expect(worker.opts).toMatchObject({ lockDuration: 60_000, stalledInterval: 30_000, maxStalledCount: 3 });
    expect(lockManagerOf(worker)).toBe(lockManager);
  });

  it('refuses a worker that already runs', () => {
    const worker = Object.assign(pausedWorker(), { running: true });
    expect(() => applyWorkerTuning(worker, contract, { WORKER_LOCK_DURATION_MS: 10_000 })).toThrow(/already running/);
  });
});
