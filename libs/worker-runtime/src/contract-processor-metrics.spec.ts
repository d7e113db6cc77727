import { DelayedError, RateLimitError, UnrecoverableError, WaitingChildrenError, type Job } from 'bullmq';
import type { Logger } from 'pino';
import { ProcessMetrics } from '@pod/observability';
import type { JobHandlers } from '@pod/queue';
import { ContractProcessor, jobOutcomeOf } from './contract-processor';

class TestProcessor extends ContractProcessor<'etsy-sync'> {
  readonly queue = 'etsy-sync' as const;
  constructor(readonly handlers: JobHandlers<'etsy-sync'>) {
    super();
  }
}

const job = (name: string) =>
  ({ id: '7', name, data: { runId: 'a3c9b1e2-7d4f-4c8a-9b1e-2f3a4b5c6d7e' }, attemptsMade: 0 }) as Job;

function newTestProcessor(
  sync: () => Promise<never> | Promise<{ runId: string; status: 'succeeded'; pagesDone: number; ordersDone: number }>,
) {
  const metrics = new ProcessMetrics({ service: 'etsy-sync' });
  const unused = () => Promise.reject(new Error('not in this test'));
  const sut = new TestProcessor({
    ping: unused,
    sync,
    'refresh-receipt': unused,
  } as unknown as JobHandlers<'etsy-sync'>);
  // Property injection, as Nest does it.
  Object.assign(sut, {
    metrics,
    logger: { info: jest.fn(), warn: jest.fn() } as unknown as Logger,
    events: { publish: jest.fn() },
  });
  return { sut, metrics };
}

const count = async (metrics: ProcessMetrics, outcome: string) => {
  const line = (await metrics.render()).body
    .split('\n')
    .find(
      (l) =>
        l.startsWith('podprofit_job_duration_seconds_count') &&
        l.includes(`outcome="${outcome}"`) &&
        l.includes('job="sync"'),
    );
  return line ? Number(line.split(' ').pop()) : 0;
};

describe('a contract processor’s job metrics', () => {
  it('times each run of a job by queue, name and outcome', async () => {
    const { sut, metrics } = newTestProcessor(() =>
      Promise.resolve({ runId: 'r', status: 'succeeded', pagesDone: 1, ordersDone: 2 }),
    );
    await sut.process(job('sync'));
    await sut.process(job('sync'));
    expect(await count(metrics, 'completed')).toBe(2);
    expect((await metrics.render()).body).toMatch(/podprofit_job_duration_seconds_count\{[^}]*queue="etsy-sync"/);
  });

  it('records a failed run and still throws, so BullMQ retries', async () => {
    const { sut, metrics } = newTestProcessor(() => Promise.reject(new Error('upstream 503')));
    await expect(sut.process(job('sync'))).rejects.toThrow('upstream 503');
    expect(await count(metrics, 'failed')).toBe(1);
  });

  it('does not record a job no handler knows (its name would be an unbounded label)', async () => {
    const { sut, metrics } = newTestProcessor(() => Promise.reject(new Error('unused')));
    await expect(sut.process(job('drop-tables'))).rejects.toBeInstanceOf(UnrecoverableError);
    expect((await metrics.render()).body).not.toContain('drop-tables');
  });

  it('tells BullMQ’s signals apart from failures', () => {
    expect(jobOutcomeOf(new DelayedError())).toBe('delayed');
    expect(jobOutcomeOf(new RateLimitError())).toBe('rate_limited');
    expect(jobOutcomeOf(new WaitingChildrenError())).toBe('waiting_children');
    expect(jobOutcomeOf(new UnrecoverableError('no'))).toBe('failed');
    expect(jobOutcomeOf('text')).toBe('failed');
  });
});
