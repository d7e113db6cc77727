import { DataSource } from 'typeorm';
import { ConnectionsRepository, createDataSource, EtsyTokensRepository, prepareDatabase } from '@pod/db';
import { TokenCipher } from '@pod/crypto';
import { createFixtureUser, createTestDatabase, queryDatabase, TEST_APP_SECRET, type TestDatabase } from '@pod/testing';
import { EtsyTokenService, type EtsyTokenRefresher } from './etsy-token-service';

class FakeReauthRequired extends Error {
  readonly code = 'reauth_required';
}

/** Etsy's token endpoint as a counter: each refresh rotates both tokens, after a delay. */
class FakeRefresher implements EtsyTokenRefresher {
  calls: string[] = [];
  fail: 'invalid_grant' | 'transient' | null = null;
  private generation = 1;

  constructor(private readonly answerAfterMs = 150) {}

  async refreshTokens(refreshToken: string) {
    this.calls.push(refreshToken);
    await new Promise((resolve) => setTimeout(resolve, this.answerAfterMs));
    if (this.fail === 'invalid_grant') throw new FakeReauthRequired('invalid_grant');
    if (this.fail === 'transient') throw new Error('etsy: 503');
    this.generation += 1;
    return {
      accessToken: `4242.access-${this.generation}`,
      refreshToken: `4242.refresh-${this.generation}`,
      accessTokenExpiresAt: new Date(Date.now() + 3600_000),
    };
  }
}

let database: TestDatabase;
const processes: DataSource[] = [];
const cipher = TokenCipher.fromAppSecret(TEST_APP_SECRET);

beforeAll(async () => {
  database = await createTestDatabase('tokens');
  await prepareDatabase({ DATABASE_URL: database.url });
  // Three "processes": each its own pool, as three etsy-sync replicas would have.
  for (let i = 0; i < 3; i += 1) {
    processes.push(
      await createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 4 }, `tokens-${i}`).initialize(),
    );
  }
}, 60_000);

afterAll(async () => {
  for (const ds of processes) await ds.destroy();
  await database?.drop();
});

async function newConnection(accessTokenExpiresAt = new Date(Date.now() + 3600_000)) {
  const user = { id: await createFixtureUser(processes[0], 'tokens') };
  const repo = new ConnectionsRepository(processes[0], cipher);
  const connection = await repo.saveEtsy({
    userId: user.id,
    etsyUserId: '4242',
    shopId: '900',
    shopName: 'Shop',
    shopCurrency: 'USD',
    shopCountry: 'US',
    accessToken: '4242.access-1',
    refreshToken: '4242.refresh-1',
    accessTokenExpiresAt,
  });
  return { userId: user.id as string, connectionId: connection.id };
}

function serviceOn(dataSource: DataSource, refresher: EtsyTokenRefresher, leases: { refreshLeaseMs?: number } = {}) {
  return new EtsyTokenService({
    dataSource,
    cipher,
    refresher,
    reauthRequired: (message) => new FakeReauthRequired(message),
    isReauthRequired: (error) => (error as { code?: string })?.code === 'reauth_required',
    ...leases,
  });
}

function services(refresher: FakeRefresher) {
  return processes.map((dataSource) => serviceOn(dataSource, refresher));
}

async function stored(connectionId: string) {
  // As the login: row-level security does not restrict it.
  const [row] = await queryDatabase<{
    token_version: number;
    status: string;
    access_token_enc: string;
    refresh_token_enc: string;
  }>(database.url, `SELECT * FROM provider_connection WHERE id = $1`, [connectionId]);
  return row;
}

describe('Etsy token refresh, single-flight across processes (item 15)', () => {
  it('10 callers in 3 processes with a rejected token: exactly one refresh, everyone gets the new token, both new tokens stored encrypted', async () => {
    const { userId, connectionId } = await newConnection();
    const refresher = new FakeRefresher();
    const perProcess = services(refresher);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        perProcess[i % 3].forConnection(userId, connectionId).refreshAfterUnauthorized('4242.access-1'),
      ),
    );
    expect(refresher.calls).toEqual(['4242.refresh-1']);
    expect(new Set(results)).toEqual(new Set(['4242.access-2']));
    const row = await stored(connectionId);
    expect(row.token_version).toBe(2);
    expect(row.status).toBe('connected');
    expect(row.access_token_enc).not.toContain('access-2');
    expect(row.refresh_token_enc).not.toContain('refresh-2');
    expect(cipher.decrypt(row.refresh_token_enc, { userId, provider: 'etsy', purpose: 'refresh' })).toBe(
      '4242.refresh-2',
    );

    // A later 401 on the new token refreshes with the newest refresh token: the old one is never sent again.
    await perProcess[1].forConnection(userId, connectionId).refreshAfterUnauthorized('4242.access-2');
    expect(refresher.calls).toEqual(['4242.refresh-1', '4242.refresh-2']);
  });

  it('10 callers per process without in-process sharing still refresh once (the refresh lease decides)', async () => {
    const { userId, connectionId } = await newConnection();
    const refresher = new FakeRefresher();
    // A fresh service per caller: no promise is shared, every caller goes to PostgreSQL.
    const callers = Array.from({ length: 10 }, (_, i) => services(refresher)[i % 3]);
    const results = await Promise.all(callers.map((s) => s.refresh(userId, connectionId, '4242.access-1')));
    expect(refresher.calls).toHaveLength(1);
    expect(new Set(results).size).toBe(1);
    expect((await stored(connectionId)).token_version).toBe(2);
  });

  it('an expired access token is refreshed once for 10 concurrent getAccessToken calls; a fresh one is used as is', async () => {
    const { userId, connectionId } = await newConnection(new Date(Date.now() - 1000));
    const refresher = new FakeRefresher();
    const perProcess = services(refresher);
    const tokens = await Promise.all(
      Array.from({ length: 10 }, (_, i) => perProcess[i % 3].forConnection(userId, connectionId).getAccessToken()),
    );
    expect(refresher.calls).toHaveLength(1);
    expect(new Set(tokens)).toEqual(new Set(['4242.access-2']));
    expect(await perProcess[2].forConnection(userId, connectionId).getAccessToken()).toBe('4242.access-2');
    expect(refresher.calls).toHaveLength(1);
  });

  it('invalid_grant marks the connection reauth_required, rethrows, and makes no further token calls', async () => {
    const { userId, connectionId } = await newConnection();
    const refresher = new FakeRefresher();
    refresher.fail = 'invalid_grant';
    const perProcess = services(refresher);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        perProcess[i % 3].forConnection(userId, connectionId).refreshAfterUnauthorized('4242.access-1'),
      ),
    );
    expect(
      outcomes.every((o) => o.status === 'rejected' && (o.reason as { code?: string }).code === 'reauth_required'),
    ).toBe(true);
    expect(refresher.calls).toHaveLength(1);
    expect((await stored(connectionId)).status).toBe('reauth_required');
    await expect(perProcess[0].forConnection(userId, connectionId).getAccessToken()).rejects.toBeInstanceOf(
      FakeReauthRequired,
    );
    expect(refresher.calls).toHaveLength(1);
  });

  it('a transient refresh failure changes nothing; the next caller refreshes with the same refresh token', async () => {
    const { userId, connectionId } = await newConnection();
    const refresher = new FakeRefresher();
    refresher.fail = 'transient';
    const [service] = services(refresher);
    await expect(service.refresh(userId, connectionId, '4242.access-1')).rejects.toThrow('etsy: 503');
    const row = await stored(connectionId);
    expect([row.status, row.token_version]).toEqual(['connected', 1]);
    refresher.fail = null;
    expect(await service.refresh(userId, connectionId, '4242.access-1')).toBe('4242.access-2');
    expect(refresher.calls).toEqual(['4242.refresh-1', '4242.refresh-1']);
  });

  it("is owner-scoped: another user's id never reads or refreshes the connection", async () => {
    const { connectionId } = await newConnection();
    const other = await newConnection();
    const refresher = new FakeRefresher();
    const [service] = services(refresher);
    await expect(service.forConnection(other.userId, connectionId).getAccessToken()).rejects.toBeInstanceOf(
      FakeReauthRequired,
    );
    await expect(service.refresh(other.userId, connectionId, '4242.access-1')).rejects.toBeInstanceOf(
      FakeReauthRequired,
    );
    expect(refresher.calls).toHaveLength(0);
  });

  it('a token endpoint that hangs 10 s holds no pooled connection: with a pool of 2, two hanging refreshes, waiters and other queries all proceed', async () => {
    const small = await createDataSource(
      { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 2 },
      'tokens-small-pool',
    ).initialize();
    try {
      const first = await newConnection();
      const second = await newConnection();
      const fresh = await newConnection();
      const hanging = new FakeRefresher(10_000);
      const service = serviceOn(small, hanging);
      const refreshes = [first, second].map(({ userId, connectionId }) =>
        service.refresh(userId, connectionId, '4242.access-1'),
      );
      // Waiters in other processes (own services, no shared promise) poll instead of queueing on a lock.
      const waiters = [first, second].map(({ userId, connectionId }, i) =>
        serviceOn(processes[i], hanging).refresh(userId, connectionId, '4242.access-1'),
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(hanging.calls).toHaveLength(2);

      // Both Etsy calls are still hanging; the small pool must still serve everyone else.
      const reads = await Promise.all(Array.from({ length: 10 }, () => small.query('SELECT 1 AS one')));
      expect(reads.map((rows) => rows[0].one)).toEqual(Array(10).fill(1));
      expect(await serviceOn(small, hanging).getAccessToken(fresh.userId, fresh.connectionId)).toBe('4242.access-1');
      expect(hanging.calls).toHaveLength(2);

      const tokens = await Promise.all([...refreshes, ...waiters]);
      expect(hanging.calls).toHaveLength(2);
      expect(new Set(tokens).size).toBe(2);
      for (const { connectionId } of [first, second]) expect((await stored(connectionId)).token_version).toBe(2);
    } finally {
      await small.destroy();
    }
  }, 30_000);

  it("a crashed refresher's lease expires: the next caller refreshes, once", async () => {
    const { userId, connectionId } = await newConnection();
    // A process took the lease and died before calling Etsy (it never renews or releases it).
    const crashed = await new EtsyTokensRepository(processes[0]).takeRefreshLease(
      userId,
      connectionId,
      '00000000-0000-4000-8000-000000000001',
      800,
    );
    expect(crashed).not.toBeNull();
    const refresher = new FakeRefresher();
    const started = Date.now();
    const results = await Promise.all(
      processes.map((dataSource) => serviceOn(dataSource, refresher).refresh(userId, connectionId, '4242.access-1')),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(refresher.calls).toEqual(['4242.refresh-1']);
    expect(new Set(results)).toEqual(new Set(['4242.access-2']));
  });

  it('a refresh that outlives its lease keeps it by renewing: no second refresh with the same refresh token', async () => {
    const { userId, connectionId } = await newConnection();
    const slow = new FakeRefresher(1_500);
    const results = await Promise.all(
      processes.map((dataSource) =>
        serviceOn(dataSource, slow, { refreshLeaseMs: 300 }).refresh(userId, connectionId, '4242.access-1'),
      ),
    );
    expect(slow.calls).toEqual(['4242.refresh-1']);
    expect(new Set(results)).toEqual(new Set(['4242.access-2']));
  });

  it('reconnecting Etsy clears a refresh lease left behind: the next refresh does not wait for it', async () => {
    const { userId, connectionId } = await newConnection();
    await new EtsyTokensRepository(processes[0]).takeRefreshLease(
      userId,
      connectionId,
      '00000000-0000-4000-8000-000000000002',
      120_000,
    );
    await new ConnectionsRepository(processes[0], cipher).saveEtsy({
      userId,
      etsyUserId: '4242',
      shopId: '900',
      shopName: 'Shop',
      shopCurrency: 'USD',
      shopCountry: 'US',
      accessToken: '4242.access-reconnected',
      refreshToken: '4242.refresh-reconnected',
      accessTokenExpiresAt: new Date(Date.now() + 3600_000),
    });
    const refresher = new FakeRefresher();
    const refreshed = serviceOn(processes[1], refresher).refresh(userId, connectionId, '4242.access-reconnected');
    const waitedTooLong = new Promise<string>((resolve) =>
      setTimeout(() => resolve('still waiting for the old lease'), 5_000).unref(),
    );
    expect(await Promise.race([refreshed, waitedTooLong])).toBe('4242.access-2');
    expect(refresher.calls).toEqual(['4242.refresh-reconnected']);
  });
});
