import type { DataSource } from 'typeorm';
import { deriveKey } from '@pod/config';
import { TokenCipher } from '@pod/crypto';
import { createTestDatabase, queryDatabase, type TestDatabase } from '@pod/testing';
import { createDataSource } from '../data-source';
import { prepareDatabase } from '../prepare-database';
import { ConnectionsRepository, tokenContext } from './connections.repository';
import { oauthVerifierContext, OAuthStatesRepository } from './oauth-states.repository';
import { TokenReencryption } from './token-reencryption';
import { UsersRepository } from './users.repository';

/**
 * Security plan item 27, key rotation: key v2 added, every stored secret moved to it by the
 * re-encryption pass (connections' tokens and webhook secrets, pending OAuth verifiers), then
 * v1 removed: every value still opens, with v2 alone. The pass is idempotent, resumes after
 * being killed midway, and leaves alone (and reports) what no key opens.
 */
const SECRET = 'k'.repeat(40);
const V1 = deriveKey(SECRET, 'token-encryption-v1');
const V2 = deriveKey('n'.repeat(40), 'token-encryption-v2');
const v1Only = new TokenCipher({ 1: V1 }, 1);
const both = new TokenCipher({ 1: V1, 2: V2 }, 2);
const v2Only = new TokenCipher({ 2: V2 }, 2);

let database: TestDatabase;
let app: DataSource;
let login: DataSource;
const users: { id: string; token: string }[] = [];
const NOW = new Date();

async function aUser(index: number): Promise<string> {
  const user = await new UsersRepository(app).create({
    email: `rotate-${index}-${Math.random().toString(36).slice(2)}@example.com`,
    passwordHash: 'x',
    firstName: 'R',
    lastName: 'K',
  });
  if (!user) throw new Error('no user');
  return user.id;
}

async function seedUnderV1(index: number): Promise<void> {
  const userId = await aUser(index);
  const connections = new ConnectionsRepository(app, v1Only);
  const token = `printify-token-${index}`;
  await connections.savePrintify({
    userId,
    accountKey: 'acct',
    shopId: `${100 + index}`,
    shopTitle: 'Shop',
    salesChannel: 'etsy',
    syncFrom: null,
    token,
    tokenExpiresAt: new Date(NOW.getTime() + 86_400_000),
  });
  await connections.setPrintifyWebhook(userId, {
    key: `hook-${index}`,
    secret: `webhook-secret-${index}`,
    status: 'registered',
  });
  await connections.saveEtsy({
    userId,
    etsyUserId: '9',
    shopId: `${200 + index}`,
    shopName: 'S',
    shopCurrency: 'USD',
    shopCountry: 'US',
    accessToken: `etsy-access-${index}`,
    refreshToken: `etsy-refresh-${index}`,
    accessTokenExpiresAt: NOW,
  });
  const states = new OAuthStatesRepository(app);
  for (const [suffix, expiresAt] of [
    ['pending', new Date(NOW.getTime() + 600_000)],
    ['expired', new Date(NOW.getTime() - 1_000)],
  ] as const) {
    const stateHash = `state-${suffix}-${index}`;
    await states.addReplacingOld(
      {
        stateHash,
        userId,
        sessionIdHash: 'session',
        codeVerifierEnc: v1Only.encrypt(`verifier-${index}`, oauthVerifierContext(userId, stateHash)),
        redirectUri: 'http://localhost/cb',
        createdAt: new Date(NOW.getTime() - 2_000),
        expiresAt,
      },
      5,
    );
  }
  users.push({ id: userId, token });
}

/** Every stored value of every user, as the login reads them (row-level security does not limit it here). */
async function storedValues() {
  const connections = await queryDatabase<{
    user_id: string;
    provider: 'etsy' | 'printify';
    key_version: number;
    access_token_enc: string;
    refresh_token_enc: string | null;
    webhook_secret_enc: string | null;
  }>(
    database.url,
    `SELECT user_id, provider, key_version, access_token_enc, refresh_token_enc, webhook_secret_enc FROM provider_connection`,
  );
  const states = await queryDatabase<{ user_id: string; state_hash: string; code_verifier_enc: string }>(
    database.url,
    `SELECT user_id, state_hash, code_verifier_enc FROM oauth_state`,
  );
  return { connections, states };
}

/** Each secret in clear, opened with `cipher` (throws if one does not open). */
async function openedWith(cipher: TokenCipher): Promise<string[]> {
  const { connections, states } = await storedValues();
  const opened: string[] = [];
  for (const row of connections) {
    opened.push(cipher.decrypt(row.access_token_enc, tokenContext(row.user_id, row.provider, 'access')));
    if (row.refresh_token_enc)
      opened.push(cipher.decrypt(row.refresh_token_enc, tokenContext(row.user_id, row.provider, 'refresh')));
    if (row.webhook_secret_enc)
      opened.push(cipher.decrypt(row.webhook_secret_enc, tokenContext(row.user_id, row.provider, 'webhook')));
  }
  for (const state of states)
    opened.push(cipher.decrypt(state.code_verifier_enc, oauthVerifierContext(state.user_id, state.state_hash)));
  return opened.sort();
}

beforeAll(async () => {
  database = await createTestDatabase('rotate');
  await prepareDatabase({ DATABASE_URL: database.url });
  app = await createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 3 }, 'rotate-app').initialize();
  login = await createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 2 }, 'rotate-login', {
    connectAs: 'login',
  }).initialize();
  for (let index = 0; index < 3; index += 1) await seedUnderV1(index);
}, 60_000);

afterAll(async () => {
  await app?.destroy();
  await login?.destroy();
  await database?.drop();
});

describe('token key rotation', () => {
  let before: string[];

  it('with v2 added: the v1 values still open and new ones go under v2', async () => {
    before = await openedWith(v1Only);
    expect(before).toHaveLength(3 * 6);
    expect(await openedWith(both)).toEqual(before);
    const read = await new ConnectionsRepository(app, both).readPrintifyToken(users[0].id);
    expect(read?.token).toBe(users[0].token);
    expect(TokenCipher.keyVersionOf(both.encrypt('x', tokenContext(users[0].id, 'etsy', 'access')))).toBe(2);
  });

  it('a pass killed after its first user resumes: run again, every value ends under v2', async () => {
    const killed = new TokenReencryption(login, both, () => NOW).run(() => {
      throw new Error('SIGKILL');
    });
    await expect(killed).rejects.toThrow('SIGKILL');
    const { connections } = await storedValues();
    // The first user's transaction committed; the others are untouched.
    expect(new Set(connections.filter((row) => row.key_version === 2).map((row) => row.user_id)).size).toBe(1);

    const report = await new TokenReencryption(login, both, () => NOW).run();
    expect(report).toMatchObject({
      keyVersion: 2,
      connections: 4,
      oauthStates: 2,
      oauthStatesDropped: 2,
      unreadable: 0,
    });
    const after = await storedValues();
    expect(after.connections.every((row) => row.key_version === 2)).toBe(true);
    const values = [
      ...after.connections.flatMap((row) => [row.access_token_enc, row.refresh_token_enc, row.webhook_secret_enc]),
      ...after.states.map((state) => state.code_verifier_enc),
    ].filter((value): value is string => value !== null);
    expect(values.every((value) => value.startsWith('v2.'))).toBe(true);
    // The finished authorizations are gone, the pending ones moved.
    expect(after.states.map((state) => state.state_hash).sort()).toEqual(
      ['state-pending-0', 'state-pending-1', 'state-pending-2'].sort(),
    );
  });

  it('with v1 removed: every secret still opens, with v2 alone', async () => {
    // Each user had one verifier twice (a pending and an expired authorization): the expired one went.
    const expected = [...before];
    for (const verifier of ['verifier-0', 'verifier-1', 'verifier-2']) expected.splice(expected.indexOf(verifier), 1);
    expect(await openedWith(v2Only)).toEqual(expected);
    expect((await new ConnectionsRepository(app, v2Only).readPrintifyToken(users[2].id))?.token).toBe(users[2].token);
  });

  it('is idempotent: a second pass changes nothing', async () => {
    const stored = await storedValues();
    const report = await new TokenReencryption(login, v2Only, () => NOW).run();
    expect(report).toMatchObject({ connections: 0, oauthStates: 0, oauthStatesDropped: 0, unreadable: 0, users: 3 });
    expect(await storedValues()).toEqual(stored);
  });

  it('leaves and reports a value no configured key opens', async () => {
    const stray = new TokenCipher({ 9: deriveKey('s'.repeat(40), 'token-encryption-v9') }, 9);
    const userId = users[1].id;
    await queryDatabase(
      database.url,
      `UPDATE provider_connection SET access_token_enc = $2, key_version = 9 WHERE user_id = $1 AND provider = 'printify'`,
      [userId, stray.encrypt('lost', tokenContext(userId, 'printify', 'access'))],
    );
    const report = await new TokenReencryption(login, v2Only, () => NOW).run();
    expect(report).toMatchObject({ connections: 0, unreadable: 1 });
    const [row] = await queryDatabase<{ key_version: number }>(
      database.url,
      `SELECT key_version FROM provider_connection WHERE user_id = $1 AND provider = 'printify'`,
      [userId],
    );
    expect(row.key_version).toBe(9);
  });
});
