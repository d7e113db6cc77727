import { UnrecoverableError, type Job } from 'bullmq';
import type { Logger } from 'pino';
import type { DomainEventPublisher, JobHandlers } from '@pod/queue';
import { ContractProcessor } from './contract-processor';
import { pingHandler } from './ping-handler';
import { workerId } from './worker-identity';

class TestProcessor extends ContractProcessor<'matcher'> {
  readonly queue = 'matcher' as const;
  readonly handlers: JobHandlers<'matcher'> = { ping: pingHandler('matcher', () => new Date('2026-05-01T10:00:00Z')) };
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

const job = (name: string, extra: Partial<Job> = {}) => ({ id: '7', name, data: {}, attemptsMade: 1, finishedOn: Date.parse('2026-05-01T10:00:01Z'), ...extra }) as Job;

describe('a contract processor', () => {
  it('runs the handler the contract names and returns its result', async () => {
    const { sut } = newTestProcessor();
    await expect(sut.process(job('ping'))).resolves.toEqual({ queue: 'matcher', worker: workerId(), completedAt: '2026-05-01T10:00:00.000Z' });
  });

  it('fails a job no handler knows without retries', async () => {
    const { sut } = newTestProcessor();
    await expect(sut.process(job('sync-page'))).rejects.toBeInstanceOf(UnrecoverableError);
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

  it('never lets a lost event fail anything', () => {
    const { sut } = newTestProcessor(jest.fn().mockResolvedValue(false));
    expect(() => sut.onCompleted(job('ping'))).not.toThrow();
  });

  it('logs connection errors, throttled, instead of throwing', () => {
    const { sut, mocks } = newTestProcessor();
    for (let i = 0; i < 5; i += 1) sut.onError(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
    expect(mocks.logger.warn).toHaveBeenCalledTimes(1);
  });
});
