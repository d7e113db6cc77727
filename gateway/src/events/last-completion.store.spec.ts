import { isJobCompletedEvent } from './last-completion.store';

const event = {
  queue: 'fx-rate',
  jobId: '5',
  name: 'ping',
  worker: 'host:123',
  completedAt: '2026-05-01T10:00:00.000Z',
};

describe('a job.completed event from the wire', () => {
  it('is accepted with the contract shape', () => {
    expect(isJobCompletedEvent(event)).toBe(true);
  });

  it.each([
    ['an unknown queue', { ...event, queue: 'other' }],
    ['a missing job id', { ...event, jobId: undefined }],
    ['a bad date', { ...event, completedAt: 'yesterday' }],
    ['an oversized field', { ...event, worker: 'x'.repeat(201) }],
    ['not an object', 'job.completed'],
  ])('is ignored with %s', (_, value) => {
    expect(isJobCompletedEvent(value)).toBe(false);
  });
});
