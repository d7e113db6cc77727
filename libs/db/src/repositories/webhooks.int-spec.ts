import type { DataSource } from 'typeorm';
import { TokenCipher } from '@pod/crypto';
import { createTestDatabase, queryDatabase, type TestDatabase } from '@pod/testing';
import { createDataSource } from '../data-source';
import { prepareDatabase } from '../prepare-database';
import { ConnectionsRepository } from './connections.repository';
import { UsersRepository } from './users.repository';

/** Webhook keys and secrets on provider_connection: encrypted at rest, found by key, shops' Etsy connections. */
let database: TestDatabase;
let dataSource: DataSource;
let connections: ConnectionsRepository;
const cipher = TokenCipher.fromAppSecret('w'.repeat(40));

beforeAll(async () => {
  database = await createTestDatabase('hooks');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 2 }, 'webhooks').initialize();
  connections = new ConnectionsRepository(dataSource, cipher);
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

async function aUser(): Promise<string> {
  const user = await new UsersRepository(dataSource).create({
    email: `hooks-${Math.random().toString(36).slice(2)}@example.com`,
    passwordHash: 'x',
    firstName: 'W',
    lastName: 'H',
  });
  if (!user) throw new Error('no user');
  return user.id;
}

const printify = (userId: string, shopId = '111') =>
  connections.savePrintify({
    userId,
    accountKey: 'acct',
    shopId,
    shopTitle: 'Shop',
    salesChannel: 'etsy',
    syncFrom: null,
    token: 'pfy-token',
    tokenExpiresAt: new Date(Date.now() + 86_400_000),
  });
const etsy = (userId: string, shopId: string) =>
  connections.saveEtsy({
    userId,
    etsyUserId: '9',
    shopId,
    shopName: 'S',
    shopCurrency: 'USD',
    shopCountry: 'US',
    accessToken: 'a',
    refreshToken: 'r',
    accessTokenExpiresAt: new Date(),
  });

describe('Printify webhook key and secret', () => {
  it('stores the secret encrypted and finds the connection by its key, decrypting it', async () => {
    const userId = await aUser();
    expect(
      await connections.setPrintifyWebhook(userId, { key: 'key-a', secret: 'the-webhook-secret', status: 'pending' }),
    ).toBe(false);
    await printify(userId);
    expect(
      await connections.setPrintifyWebhook(userId, { key: 'key-a', secret: 'the-webhook-secret', status: 'pending' }),
    ).toBe(true);
    expect(await connections.findPrintifyWebhookTarget('key-a')).toEqual({
      connectionId: expect.any(String),
      userId,
      status: 'connected',
      shopId: '111',
      secret: 'the-webhook-secret',
    });
    expect(await connections.findPrintifyWebhookTarget('key-b')).toBeNull();
    const [raw] = await queryDatabase<{ webhook_secret_enc: string }>(
      database.url,
      'SELECT webhook_secret_enc FROM provider_connection WHERE webhook_key = $1',
      ['key-a'],
    );
    expect(raw.webhook_secret_enc).toMatch(/^v1\./);
    expect(raw.webhook_secret_enc).not.toContain('the-webhook-secret');
    // Bound to its owner: copied into another user's row it does not decrypt.
    const other = await aUser();
    await printify(other, '222');
    await queryDatabase(
      database.url,
      `UPDATE provider_connection SET webhook_key = 'key-c', webhook_secret_enc = $1 WHERE user_id = $2`,
      [raw.webhook_secret_enc, other],
    );
    await expect(connections.findPrintifyWebhookTarget('key-c')).rejects.toThrow(/could not be decrypted/);
  });

  it('keeps keys unique, and moves the status only while the key is still the current one', async () => {
    const [a, b] = [await aUser(), await aUser()];
    await printify(a);
    await printify(b);
    await connections.setPrintifyWebhook(a, { key: 'dup', secret: 's', status: 'pending' });
    await expect(connections.setPrintifyWebhook(b, { key: 'dup', secret: 's', status: 'pending' })).rejects.toThrow();
    expect(await connections.markPrintifyWebhook(a, 'old-key', 'failed')).toBe(false);
    expect(await connections.readPrintifyWebhook(a)).toEqual({ key: 'dup', status: 'pending' });
    expect(await connections.markPrintifyWebhook(a, 'dup', 'registered')).toBe(true);
    expect(await connections.readPrintifyWebhook(a)).toEqual({ key: 'dup', status: 'registered' });
    // A reconnect keeps the key (the subscriptions still point at it) until a new setup replaces it.
    await printify(a, '333');
    expect(await connections.readPrintifyWebhook(a)).toEqual({ key: 'dup', status: 'registered' });
    await connections.remove(a, 'printify');
    expect(await connections.findPrintifyWebhookTarget('dup')).toBeNull();
    expect(await connections.readPrintifyWebhook(a)).toBeNull();
  });
});

describe('Etsy connections of a shop', () => {
  it('lists the connected Etsy connections that hold the shop, of every user', async () => {
    const [a, b, c] = [await aUser(), await aUser(), await aUser()];
    await etsy(a, '5550001');
    await etsy(b, '5550001');
    await etsy(c, '5550002');
    const found = await connections.listEtsyConnectionsOfShop('5550001');
    expect(found.map((f) => f.userId).sort()).toEqual([a, b].sort());
    await connections.markStatus(b, 'etsy', 'reauth_required');
    expect((await connections.listEtsyConnectionsOfShop('5550001')).map((f) => f.userId)).toEqual([a]);
    expect(await connections.listEtsyConnectionsOfShop('999')).toEqual([]);
  });
});
