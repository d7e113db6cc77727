import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@pod/testing';
import { createDataSource } from '../data-source';
import { prepareDatabase } from '../prepare-database';
import { withTransaction } from './database-session';
import { EtsyOrdersRepository } from './etsy-orders.repository';
import { OAuthStatesRepository } from './oauth-states.repository';
import { SessionsRepository } from './sessions.repository';
import { TableStatisticsRepository } from './table-statistics.repository';
import { UsersRepository } from './users.repository';

let database: TestDatabase;
let dataSource: DataSource;

beforeAll(async () => {
  database = await createTestDatabase('repos');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource(
    { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 4 },
    'repositories',
  ).initialize();
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

const email = () => `repo-${Math.random().toString(36).slice(2)}@example.com`;
const newUser = (address = email()) => ({ email: address, passwordHash: 'x', firstName: 'R', lastName: 'S' });

async function aUser(): Promise<string> {
  const user = await new UsersRepository(dataSource).create(newUser());
  if (!user) throw new Error('no user');
  return user.id;
}

describe('withTransaction: repositories built on its manager commit or roll back together', () => {
  it('rolls back every repository write when the work throws', async () => {
    const address = email();
    await expect(
      withTransaction(dataSource, async (manager) => {
        const user = await new UsersRepository(manager).create(newUser(address));
        await new SessionsRepository(manager).insert({
          idHash: `h-${address}`,
          userId: user!.id,
          lastSeenAt: new Date(),
          expiresAt: new Date(Date.now() + 60_000),
        });
        throw new Error('page failed');
      }),
    ).rejects.toThrow('page failed');
    expect(await new UsersRepository(dataSource).emailTaken(address)).toBe(false);
  });

  it('commits them together when it returns', async () => {
    const address = email();
    const userId = await withTransaction(dataSource, async (manager) => {
      const user = await new UsersRepository(manager).create(newUser(address));
      await new SessionsRepository(manager).insert({
        idHash: `h-${address}`,
        userId: user!.id,
        lastSeenAt: new Date(),
        expiresAt: new Date(Date.now() + 60_000),
      });
      return user!.id;
    });
    expect(await new SessionsRepository(dataSource).findWithUser(`h-${address}`, userId)).toMatchObject({
      userId,
      user: { email: address },
    });
  });
});

describe('UsersRepository', () => {
  it('of two sign-ups with one email at once, one gets the account and the other null', async () => {
    const address = email();
    const users = new UsersRepository(dataSource);
    const results = await Promise.all([users.create(newUser(address)), users.create(newUser(address))]);
    expect(results.filter((user) => user === null)).toHaveLength(1);
  });

  it('replaceSandboxTenant is a compare-and-set: of two racing replacements one wins', async () => {
    const userId = await aUser();
    const users = new UsersRepository(dataSource);
    const won = await Promise.all([
      users.replaceSandboxTenant(userId, null, 'a'),
      users.replaceSandboxTenant(userId, null, 'b'),
    ]);
    expect(won.filter(Boolean)).toHaveLength(1);
    expect(await users.replaceSandboxTenant(userId, 'stale', 'c')).toBe(false);
    expect((await users.sandboxTenantOf(userId))?.sandboxTenantId).toBe(won[0] ? 'a' : 'b');
  });
});

describe('owner scoping', () => {
  it("a session is found only with its own user's id", async () => {
    const [owner, other] = [await aUser(), await aUser()];
    const sessions = new SessionsRepository(dataSource);
    await sessions.insert({
      idHash: `owned-${owner}`,
      userId: owner,
      lastSeenAt: new Date(),
      expiresAt: new Date(Date.now() + 60_000),
    });
    expect(await sessions.findWithUser(`owned-${owner}`, other)).toBeNull();
    expect(await sessions.findWithUser(`owned-${owner}`, owner)).not.toBeNull();
  });

  it("an OAuth state is pending and consumable only for its user's session, and only once", async () => {
    const [owner, other] = [await aUser(), await aUser()];
    const states = new OAuthStatesRepository(dataSource);
    const now = new Date();
    await states.addReplacingOld(
      {
        stateHash: `s-${owner}`,
        userId: owner,
        sessionIdHash: 'sess',
        codeVerifierEnc: 'enc',
        redirectUri: 'https://x/cb',
        createdAt: now,
        expiresAt: new Date(now.getTime() + 60_000),
      },
      4,
    );
    expect(await states.isPending(`s-${owner}`, { userId: other, sessionIdHash: 'sess' }, now)).toBe(false);
    expect(await states.consume(`s-${owner}`, { userId: other, sessionIdHash: 'sess' }, now)).toBeNull();
    expect(await states.isPending(`s-${owner}`, { userId: owner, sessionIdHash: 'sess' }, now)).toBe(true);
    expect(await states.consume(`s-${owner}`, { userId: owner, sessionIdHash: 'sess' }, now)).toEqual({
      codeVerifierEnc: 'enc',
      redirectUri: 'https://x/cb',
    });
    expect(await states.consume(`s-${owner}`, { userId: owner, sessionIdHash: 'sess' }, now)).toBeNull();
    expect(await states.find(`s-${owner}`)).toMatchObject({ userId: owner, consumedAt: now });
  });

  it('keeps at most keepNewest + 1 pending authorizations per user', async () => {
    const owner = await aUser();
    const states = new OAuthStatesRepository(dataSource);
    for (let i = 0; i < 8; i += 1) {
      const createdAt = new Date(Date.now() + i * 1000);
      await states.addReplacingOld(
        {
          stateHash: `k${i}-${owner}`,
          userId: owner,
          sessionIdHash: 'sess',
          codeVerifierEnc: 'enc',
          redirectUri: 'https://x/cb',
          createdAt,
          expiresAt: new Date(createdAt.getTime() + 600_000),
        },
        4,
      );
    }
    const pending = await Promise.all(Array.from({ length: 8 }, (_, i) => states.find(`k${i}-${owner}`)));
    expect(pending.map((state) => state !== null)).toEqual([false, false, false, true, true, true, true, true]);
  });
});

describe('TableStatisticsRepository', () => {
  it('analyzes a synced table whose statistics lag far behind its rows, and only then', async () => {
    const userId = await aUser();
    const entries = Array.from({ length: 300 }, (_, index) => ({
      entryId: String(9_000_000 + index),
      ledgerType: 'transaction',
      referenceType: 'transaction',
      referenceId: String(7_000_000 + index),
      parentEntryId: null,
      currency: 'USD' as const,
      amountMinor: -20,
      entryCreatedAt: new Date('2026-01-01T00:00:00Z'),
      payload: { entry_id: 9_000_000 + index },
    }));
    await new EtsyOrdersRepository(dataSource).upsertLedgerEntries(userId, '4242', entries);
    const statistics = new TableStatisticsRepository(dataSource);
    // The server reports a session's row changes to the statistics views within a few seconds.
    let analyzed: string[] = [];
    for (let tries = 0; tries < 60 && analyzed.length === 0; tries += 1) {
      analyzed = await statistics.analyzeStale(['etsy_ledger_entry', 'etsy_receipt']);
      if (analyzed.length === 0) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(analyzed).toEqual(['etsy_ledger_entry']);
    const [table] = await dataSource.query(`SELECT reltuples FROM pg_class WHERE relname = 'etsy_ledger_entry'`);
    expect(Number(table.reltuples)).toBeGreaterThanOrEqual(300);
    expect(await statistics.analyzeStale(['etsy_ledger_entry'])).toEqual([]);
  }, 30_000);
});
