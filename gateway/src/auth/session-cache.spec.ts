import { SessionCache, type CachedSession } from './session-cache';

const session = (userId = 'u1'): CachedSession => ({
  userId,
  lastSeenAt: 0,
  expiresAt: 1e12,
  user: { id: userId, email: `${userId}@x.test`, firstName: 'A', lastName: 'B', currency: 'USD', isDemo: false },
});

function liveCache(ttlMs = 5_000): SessionCache {
  const cache = new SessionCache(ttlMs, 3);
  cache.setLive(true);
  return cache;
}

describe('SessionCache', () => {
  it('answers a stored session for its user within the TTL, and not after', () => {
    const cache = liveCache();
    cache.store('h1', session(), cache.beginLoad(), 1_000);
    expect(cache.get('h1', 'u1', 5_999)?.userId).toBe('u1');
    expect(cache.get('h1', 'someone-else', 2_000)).toBeUndefined();
    expect(cache.get('h1', 'u1', 6_000)).toBeUndefined();
  });

  it('keeps nothing while revocations are not heard, and forgets everything when hearing stops or resumes', () => {
    const cache = new SessionCache(5_000);
    cache.store('h1', session(), cache.beginLoad(), 0);
    expect(cache.size).toBe(0);
    cache.setLive(true);
    cache.store('h1', session(), cache.beginLoad(), 0);
    cache.setLive(false);
    expect(cache.get('h1', 'u1', 1)).toBeUndefined();
    cache.setLive(true);
    expect(cache.get('h1', 'u1', 1)).toBeUndefined();
  });

  it('does not store a read that began before an eviction (it may hold the revoked session)', () => {
    const cache = liveCache();
    const ticket = cache.beginLoad();
    cache.evictSession('h1');
    cache.store('h1', session(), ticket, 0);
    expect(cache.get('h1', 'u1', 1)).toBeUndefined();
  });

  it('evicts one session, every session of a user, or all', () => {
    const cache = liveCache(5_000);
    const store = (hash: string, user: string) => cache.store(hash, session(user), cache.beginLoad(), 0);
    store('a', 'u1');
    store('b', 'u1');
    store('c', 'u2');
    cache.evictSession('a');
    expect(cache.get('a', 'u1', 1)).toBeUndefined();
    expect(cache.get('b', 'u1', 1)).toBeDefined();
    cache.evictUser('u1');
    expect(cache.get('b', 'u1', 1)).toBeUndefined();
    expect(cache.get('c', 'u2', 1)).toBeDefined();
    cache.flush();
    expect(cache.size).toBe(0);
  });

  it('stays within its size bound, dropping the oldest entry', () => {
    const cache = liveCache();
    for (const hash of ['a', 'b', 'c', 'd']) cache.store(hash, session(), cache.beginLoad(), 0);
    expect(cache.size).toBe(3);
    expect(cache.get('a', 'u1', 1)).toBeUndefined();
    expect(cache.get('d', 'u1', 1)).toBeDefined();
  });

  it('keeps nothing with a TTL of 0', () => {
    const cache = liveCache(0);
    cache.store('a', session(), cache.beginLoad(), 0);
    expect(cache.get('a', 'u1', 0)).toBeUndefined();
  });
});
