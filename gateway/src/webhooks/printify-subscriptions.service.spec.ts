import type { PinoLogger } from 'nestjs-pino';
import type { AppConfig } from '@pod/config';
import type { ConnectionsRepository, WebhookStatus } from '@pod/db';
import { NotFoundError, ProviderError } from '@pod/integrations';
import type { PrintifyWebhooksPort } from '../connections/provider-ports';
import { PrintifySubscriptionsService, webhookKeyOf } from './printify-subscriptions.service';

const BASE = 'https://podprofit.example.com';
const TOPICS = [
  'order:created',
  'order:updated',
  'order:sent-to-production',
  'order:shipment:created',
  'order:shipment:delivered',
];

function newTestService(options: { base?: string | null; previousKey?: string | null; connected?: boolean } = {}) {
  const hook: { key: string | null; status: WebhookStatus | null; secret: string | null } = {
    key: options.previousKey ?? null,
    status: null,
    secret: null,
  };
  const connections = {
    readPrintifyToken: jest.fn(async () =>
      options.connected === false
        ? null
        : { token: 'pfy-token', connection: { shopId: '815256', status: 'connected', externalAccountId: 'shops:abc' } },
    ),
    readPrintifyWebhook: jest.fn(async () => ({ key: hook.key, status: hook.status })),
    setPrintifyWebhook: jest.fn(
      async (_userId: string, setup: { key: string; secret: string; status: WebhookStatus }) => {
        Object.assign(hook, setup);
        return true;
      },
    ),
    markPrintifyWebhook: jest.fn(async (_userId: string, key: string, status: WebhookStatus) => {
      if (hook.key !== key) return false;
      hook.status = status;
      return true;
    }),
  };
  const remote: Array<{ id: string; topic: string; url: string }> = [];
  let nextId = 1;
  const printify = {
    listWebhooks: jest.fn(async () => ({ webhooks: [...remote] })),
    createWebhook: jest.fn(
      async (_auth: unknown, _shop: string, input: { topic: string; url: string; secret?: string }) => {
        const created = { id: `w${nextId++}`, topic: input.topic, url: input.url };
        remote.push(created);
        return created;
      },
    ),
    deleteWebhook: jest.fn(async (_auth: unknown, _shop: string, id: string, host: string) => {
      const index = remote.findIndex((w) => w.id === id);
      if (index < 0) throw new NotFoundError('printify', 'gone');
      if (new URL(remote[index].url).host !== host)
        throw new ProviderError('host mismatch', { provider: 'printify', status: 400, code: 'bad_request' });
      remote.splice(index, 1);
    }),
  } satisfies PrintifyWebhooksPort;
  const lines: string[] = [];
  const log = (level: string) => (fields: object, message: string) =>
    lines.push(JSON.stringify({ level, ...fields, message }));
  const logger = { setContext: jest.fn(), info: log('info'), warn: log('warn') } as unknown as PinoLogger;
  const config = { webhookPublicBase: options.base === undefined ? BASE : options.base } as AppConfig;
  const sut = new PrintifySubscriptionsService(
    printify,
    connections as unknown as ConnectionsRepository,
    config,
    logger,
  );
  return { sut, printify, connections, remote, hook, lines };
}

describe('PrintifySubscriptionsService.register', () => {
  it('subscribes the five order topics to a fresh key with a fresh secret, stored first, then marks them registered', async () => {
    const { sut, printify, remote, hook, connections } = newTestService();
    expect(await sut.register('user-1')).toBe('registered');
    expect(hook.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hook.secret).toMatch(/^[0-9a-f]{40}$/);
    expect(hook.status).toBe('registered');
    expect(connections.setPrintifyWebhook.mock.calls[0][1]).toMatchObject({ status: 'pending' });
    expect(remote.map((w) => w.topic)).toEqual(TOPICS);
    expect(new Set(remote.map((w) => w.url))).toEqual(new Set([`${BASE}/api/webhooks/printify/${hook.key}`]));
    expect(
      printify.createWebhook.mock.calls.every((call) => call[2].secret === hook.secret && call[1] === '815256'),
    ).toBe(true);
    expect(printify.createWebhook.mock.calls[0][0]).toEqual({ token: 'pfy-token', accountKey: 'shops:abc' });
  });

  it("replaces a previous key's subscriptions (on any host) after the new ones exist, and leaves others alone", async () => {
    const { sut, remote, hook } = newTestService({ previousKey: 'old-key' });
    remote.push({ id: 'old1', topic: 'order:created', url: 'http://localhost:5000/api/webhooks/printify/old-key' });
    remote.push({ id: 'foreign', topic: 'order:created', url: `${BASE}/api/webhooks/printify/someone-elses-key` });
    expect(await sut.register('user-1')).toBe('registered');
    expect(remote.map((w) => w.id)).toEqual(['foreign', 'w1', 'w2', 'w3', 'w4', 'w5']);
    expect(hook.key).not.toBe('old-key');
  });

  it('does nothing without WEBHOOK_PUBLIC_URL or a connection', async () => {
    const off = newTestService({ base: null });
    expect(await off.sut.register('user-1')).toBeNull();
    expect(off.printify.listWebhooks).not.toHaveBeenCalled();
    const none = newTestService({ connected: false });
    expect(await none.sut.register('user-1')).toBeNull();
    expect(none.connections.setPrintifyWebhook).not.toHaveBeenCalled();
  });

  it('never throws: a token without the webhooks scope leaves the status failed and a log line without secrets', async () => {
    const { sut, printify, hook, lines } = newTestService();
    printify.createWebhook.mockRejectedValueOnce(
      new ProviderError('printify POST /v1/shops/{shop_id}/webhooks.json: HTTP 403', {
        provider: 'printify',
        status: 403,
        code: 'forbidden',
      }),
    );
    expect(await sut.register('user-1')).toBe('failed');
    expect(hook.status).toBe('failed');
    const text = lines.join('\n');
    expect(text).toContain('"reason":"forbidden 403"');
    expect(text).not.toContain(hook.secret as string);
    expect(text).not.toContain(hook.key as string);
    expect(text).not.toContain('pfy-token');
  });
});

describe('PrintifySubscriptionsService.unregister', () => {
  it("deletes this connection's subscriptions with their URL's host, and only those", async () => {
    const { sut, printify, remote } = newTestService({ previousKey: 'mine' });
    remote.push(
      { id: 'a', topic: 'order:created', url: 'https://podprofit.example.com:8443/api/webhooks/printify/mine' },
      { id: 'b', topic: 'order:updated', url: 'https://podprofit.example.com:8443/api/webhooks/printify/mine' },
      { id: 'c', topic: 'order:updated', url: 'https://podprofit.example.com/api/webhooks/printify/theirs' },
    );
    expect(await sut.unregister('user-1')).toBe(2);
    expect(remote.map((w) => w.id)).toEqual(['c']);
    expect(printify.deleteWebhook.mock.calls.map((call) => call[3])).toEqual([
      'podprofit.example.com:8443',
      'podprofit.example.com:8443',
    ]);
  });

  it('never throws, and does nothing for a connection without webhooks', async () => {
    const none = newTestService();
    expect(await none.sut.unregister('user-1')).toBe(0);
    expect(none.printify.listWebhooks).not.toHaveBeenCalled();
    const failing = newTestService({ previousKey: 'mine' });
    failing.printify.listWebhooks.mockRejectedValueOnce(new Error('boom'));
    expect(await failing.sut.unregister('user-1')).toBe(0);
  });
});

describe('webhookKeyOf', () => {
  it('reads the key of our webhook URLs on any host and nothing else', () => {
    expect(webhookKeyOf('https://a.example/api/webhooks/printify/abc')).toBe('abc');
    expect(webhookKeyOf('https://a.example/prefix/api/webhooks/printify/abc')).toBe('abc');
    expect(webhookKeyOf('https://a.example/api/webhooks/etsy')).toBeNull();
    expect(webhookKeyOf('not a url')).toBeNull();
  });
});
