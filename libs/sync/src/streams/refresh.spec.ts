import { settleRefresh } from './refresh';

describe('settleRefresh', () => {
  const scope = { userId: 'u1', provider: 'printify' as const, shopId: '42' };
  const at = new Date('2026-11-24T12:00:00Z');

  it('queues the match run and announces an added or changed order once, naming no run', async () => {
    const published: unknown[] = [];
    const queued: string[] = [];
    const events = {
      publish: async (name: string, payload: unknown) => void published.push([name, payload]),
      queueMatch: async (userId: string) => void queued.push(userId),
    };
    expect(await settleRefresh(events, scope, { added: 1, changed: 0, writtenKeys: ['o1'] }, at)).toEqual({
      outcome: 'added',
    });
    expect(await settleRefresh(events, scope, { added: 0, changed: 1, writtenKeys: ['o1'] }, at)).toEqual({
      outcome: 'changed',
    });
    expect(published).toEqual([
      ['orders.synced', { ...scope, syncRunId: null, ordersAdded: 1, ordersChanged: 0, syncedAt: at.toISOString() }],
      ['orders.synced', { ...scope, syncRunId: null, ordersAdded: 0, ordersChanged: 1, syncedAt: at.toISOString() }],
    ]);
    expect(queued).toEqual(['u1', 'u1']);
  });

  it('still announces, and reports the refresh, when the match run cannot be queued', async () => {
    const published: string[] = [];
    const events = {
      publish: async (name: string) => void published.push(name),
      queueMatch: async () => Promise.reject(new Error('Redis connection is reconnecting')),
    };
    expect(await settleRefresh(events, scope, { added: 1, changed: 0, writtenKeys: ['o1'] }, at)).toEqual({
      outcome: 'added',
    });
    expect(published).toEqual(['orders.synced']);
  });

  it('stays quiet when the stored version was already current', async () => {
    const published: unknown[] = [];
    const events = {
      publish: async (name: string) => void published.push(name),
      queueMatch: async (userId: string) => void published.push(`queue ${userId}`),
    };
    expect(await settleRefresh(events, scope, { added: 0, changed: 0, writtenKeys: [] }, at)).toEqual({
      outcome: 'unchanged',
    });
    expect(published).toEqual([]);
  });
});
