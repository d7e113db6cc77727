import { Logger as NestLogger } from '@nestjs/common';
import type { ClientProxy } from '@nestjs/microservices';
import { UnrecoverableError, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { NEVER, throwError, type Observable } from 'rxjs';
import type { AppConfig } from '@pod/config';
import { DomainEventPublisher, type JobHandlers } from '@pod/queue';
import { ContractProcessor } from './contract-processor';
import { pingHandler } from './ping-handler';
import { workerId } from './worker-identity';

class TestProcessor extends ContractProcessor<'matcher'> {
  readonly queue = 'matcher' as const;
  readonly handlers: JobHandlers<'matcher'> = {
    ping: pingHandler('matcher', () => new Date('2026-05-01T10:00:00Z')),
    'match-user': async (job) => ({ runId: job.data.runId, status: 'skipped', added: 0, changed: 0, removed: 0 }),
    'compute-profits': async (job) => ({ userId: job.data.userId, records: 0, computed: 0, written: 0 }),
    'refigure-profits': async () => ({ usersQueued: 0 }),
  };
}

function newTestProcessor(publish: DomainEventPublisher['publish'] = jest.fn().mockResolvedValue(true)) {
  const sut = new TestProcessor();
  const mocks = {
    publish: publish as jest.Mock,
    logger: { info: jest.fn(), warn: jest.fn(), error: jest.fn() },
  };
  // Property injection, as Nest does it.
  Object.assign(sut, { events: { publish: mocks.publish }, logger: mocks.logger as unknown as Logger });
  return { sut, mocks };
}

const PING_DATA = { requestedAt: '2026-05-01T09:59:59.000Z', requestedBy: 'test' };
const job = (name: string, extra: Partial<Job> = {}) =>
  ({
    id: '7',
    name,
    data: PING_DATA,
    attemptsMade: 1,
    finishedOn: Date.parse('2026-05-01T10:00:01Z'),
    ...extra,
  }) as Job;

describe('a contract processor', () => {
  it('runs the handler the contract names and returns its result', async () => {
    const { sut } = newTestProcessor();
    await expect(sut.process(job('ping'))).resolves.toEqual({
      queue: 'matcher',
      worker: workerId(),
      completedAt: '2026-05-01T10:00:00.000Z',
    });
  });

  it('fails a job no handler knows without retries', async () => {
    const { sut } = newTestProcessor();
    await expect(sut.process(job('sync-page'))).rejects.toBeInstanceOf(UnrecoverableError);
  });

  it('fails a job whose data breaks its contract without retries, before its handler runs', async () => {
    const { sut } = newTestProcessor();
    const handler = jest.spyOn(sut.handlers, 'compute-profits');
    const refused = sut.process(job('compute-profits', { data: { userId: "1' OR '1'='1", reason: 'operator' } }));
    await expect(refused).rejects.toBeInstanceOf(UnrecoverableError);
    await expect(refused).rejects.toThrow('invalid job data for matcher/compute-profits: userId is not a uuid');
    // The untrusted value is not repeated in the reason (it lands in Redis and the log).
    await expect(refused).rejects.not.toThrow(/OR/);
    expect(handler).not.toHaveBeenCalled();
  });

  it('publishes job.completed with ids only once BullMQ reports completion', () => {
    const { sut, mocks } = newTestProcessor();
    sut.onCompleted(job('ping'));
    expect(mocks.publish).toHaveBeenCalledWith('job.completed', {
      queue: 'matcher',
      jobId: '7',
      name: 'ping',
      worker: workerId(),
      completedAt: '2026-05-01T10:00:01.000Z',
    });
  });

  describe('when the event cannot be published', () => {
    // The real publisher over a transport that fails the way Redis does when it is away.
    let publisherWarnings: jest.SpyInstance;
    beforeEach(
      () => (publisherWarnings = jest.spyOn(NestLogger.prototype, 'warn').mockImplementation(() => undefined)),
    );
    afterEach(() => publisherWarnings.mockRestore());

    function processorOverBrokenTransport(emit: () => Observable<unknown>) {
      const publisher = new DomainEventPublisher(
        { emit } as unknown as ClientProxy,
        { REDIS_PREFIX: 'test' } as AppConfig,
      );
      const published: Array<Promise<boolean>> = [];
      const publish = jest.fn((...args: Parameters<DomainEventPublisher['publish']>) => {
        const outcome = publisher.publish(...args);
        published.push(outcome);
        return outcome;
      });
      return { ...newTestProcessor(publish as DomainEventPublisher['publish']), published };
    }

    it('still logs the completion, and the lost event settles as false instead of rejecting', async () => {
      const { sut, mocks, published } = processorOverBrokenTransport(() =>
        throwError(() => new Error('Connection is closed.')),
      );
      expect(sut.onCompleted(job('ping'))).toBeUndefined();
      expect(mocks.logger.info).toHaveBeenCalledWith(
        expect.objectContaining({ event: 'job.completed', jobId: '7' }),
        'job completed',
      );
      expect(published).toHaveLength(1);
      await expect(published[0]).resolves.toBe(false);
      expect(publisherWarnings).toHaveBeenCalledWith(
        'Could not publish job.completed (Connection is closed.); listeners will miss this hint',
      );
    });

    it('does not wait for a transport that never answers', async () => {
      jest.useFakeTimers();
      try {
        const { sut, mocks, published } = processorOverBrokenTransport(() => NEVER);
        expect(sut.onCompleted(job('ping'))).toBeUndefined();
        expect(mocks.logger.info).toHaveBeenCalledTimes(1);
        let settled: boolean | undefined;
        void published[0].then((value) => (settled = value));
        await jest.advanceTimersByTimeAsync(999);
        expect(settled).toBeUndefined();
        await jest.advanceTimersByTimeAsync(1);
        expect(settled).toBe(false);
        expect(publisherWarnings).toHaveBeenCalledWith(expect.stringContaining('no answer within 1000 ms'));
      } finally {
        jest.useRealTimers();
      }
    });
  });

  it('logs connection errors, throttled, instead of throwing', () => {
    const { sut, mocks } = newTestProcessor();
    for (let i = 0; i < 5; i += 1) sut.onError(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    expect(mocks.logger.warn).toHaveBeenCalledTimes(1);
  });
});
