import { DelayedError, UnrecoverableError } from 'bullmq';
import { jobFailure } from './job-failure';

describe('the error a worker lets BullMQ keep', () => {
  it('replaces a PostgreSQL error, whose message and stack quote the value, by its code and statement', () => {
    const pg = Object.assign(new Error('value "4111 1111 1111 1111" is out of range for type integer'), {
      name: 'QueryFailedError',
      code: '22003',
      query: 'UPDATE order_profit SET net_minor = $1 WHERE user_id = $2',
      parameters: ['4111 1111 1111 1111', 'u'],
    });
    const kept = jobFailure(pg) as Error;
    expect(kept).not.toBe(pg);
    expect(kept.message).toMatch(
      /^PostgreSQL error 22003 \(numeric_value_out_of_range\) in UPDATE order_profit#[0-9a-f]{8}$/,
    );
    expect(`${kept.message} ${kept.stack}`).not.toContain('4111');
  });

  it('passes every other error as it is, so BullMQ still sees its own signals', () => {
    for (const error of [
      new UnrecoverableError('runId is not a uuid'),
      new DelayedError(),
      new Error('Etsy answered 503'),
    ])
      expect(jobFailure(error)).toBe(error);
  });
});
