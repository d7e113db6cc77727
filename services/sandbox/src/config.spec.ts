import { isLoopbackHost, readSandboxOptions as readOptions, realEtsyCredentials } from './config';

const TOKEN = 'spec-admin-token-0123456789abcdef';
/** The settings with an admin token given (the token rules have their own tests below). */
const readSandboxOptions = (env: Record<string, string | undefined>) =>
  readOptions({ SANDBOX_ADMIN_TOKEN: TOKEN, ...env });

describe('sandbox settings', () => {
  it('has loopback defaults and the product callback as the registered redirect', () => {
    const options = readSandboxOptions({});
    expect(options).toMatchObject({
      host: '127.0.0.1',
      port: 5200,
      seed: 'podprofit-demo',
      adminToken: TOKEN,
      etsyQps: 10,
      etsyQpd: 10_000,
      printifyRpm: 600,
      accessTokenTtlSeconds: 3600,
    });
    expect(options.etsyApp).toMatchObject({
      keystring: 'sandbox-keystring',
      sharedSecret: 'sandbox-shared-secret',
      redirectUris: ['http://localhost:5000/api/connections/etsy/callback'],
    });
    expect(readSandboxOptions({ PORT: '6000' }).etsyApp.redirectUris).toEqual([
      'http://localhost:6000/api/connections/etsy/callback',
    ]);
    // The gateway's default callback sits on PUBLIC_ORIGIN: register the same one.
    expect(readSandboxOptions({ PUBLIC_ORIGIN: 'http://127.0.0.1:5000', PORT: '5000' }).etsyApp.redirectUris).toEqual([
      'http://127.0.0.1:5000/api/connections/etsy/callback',
    ]);
    expect(
      readSandboxOptions({ SANDBOX_ETSY_REDIRECT_URIS: 'https://a.example/cb, https://b.example/cb' }).etsyApp
        .redirectUris,
    ).toEqual(['https://a.example/cb', 'https://b.example/cb']);
  });

  it('lists every invalid value', () => {
    expect(() =>
      readSandboxOptions({
        SANDBOX_PORT: 'x',
        SANDBOX_ETSY_QPS: '0',
        SANDBOX_ADMIN_TOKEN: 'short',
        SANDBOX_ETSY_SHARED_SECRET: 'a:b',
      }),
    ).toThrow(/SANDBOX_PORT[\s\S]*SANDBOX_ETSY_QPS[\s\S]*SANDBOX_ETSY_SHARED_SECRET[\s\S]*SANDBOX_ADMIN_TOKEN/);
  });

  it("reads webhook settings: hosts it may post to, the portal's Etsy subscription (the product's by default), the time scale", () => {
    const secret = `whsec_${Buffer.alloc(24, 1).toString('base64')}`;
    expect(readSandboxOptions({})).toMatchObject({
      webhookHosts: [],
      etsyWebhook: null,
      webhookTimeScale: 1,
      publicUrl: undefined,
    });
    expect(
      readSandboxOptions({
        SANDBOX_WEBHOOK_HOSTS: 'Gateway, hooks.example',
        SANDBOX_WEBHOOK_TIME_SCALE: '0.001',
        SANDBOX_URL: 'http://sandbox:5200/',
      }),
    ).toMatchObject({
      webhookHosts: ['gateway', 'hooks.example'],
      webhookTimeScale: 0.001,
      publicUrl: 'http://sandbox:5200',
    });
    // The gateway's WEBHOOK_PUBLIC_URL and ETSY_WEBHOOK_SECRET, as if set in Etsy's portal.
    expect(
      readSandboxOptions({ WEBHOOK_PUBLIC_URL: 'http://gateway:5000/', ETSY_WEBHOOK_SECRET: secret }).etsyWebhook,
    ).toEqual({
      url: 'http://gateway:5000/api/webhooks/etsy',
      secret,
      events: ['order.paid', 'order.shipped', 'order.canceled', 'order.delivered'],
    });
    expect(readSandboxOptions({ WEBHOOK_PUBLIC_URL: 'http://gateway:5000' })).toMatchObject({
      etsyWebhook: null,
      webhookHosts: ['gateway'],
    });
    expect(
      readSandboxOptions({ SANDBOX_ETSY_WEBHOOK_URL: 'http://127.0.0.1:9/e', SANDBOX_ETSY_WEBHOOK_SECRET: secret })
        .etsyWebhook?.url,
    ).toBe('http://127.0.0.1:9/e');
    expect(() =>
      readSandboxOptions({
        SANDBOX_ETSY_WEBHOOK_URL: 'ftp://x/e',
        SANDBOX_ETSY_WEBHOOK_SECRET: 'nope',
        SANDBOX_WEBHOOK_TIME_SCALE: '0',
      }),
    ).toThrow(/SANDBOX_ETSY_WEBHOOK_URL[\s\S]*SANDBOX_ETSY_WEBHOOK_SECRET[\s\S]*SANDBOX_WEBHOOK_TIME_SCALE/);
  });

  it('knows when real Etsy credentials are configured', () => {
    expect(realEtsyCredentials({})).toBe(false);
    expect(realEtsyCredentials({ ETSY_API_KEY: 'abc' })).toBe(false);
    expect(realEtsyCredentials({ ETSY_API_KEY: 'abc', ETSY_SHARED_SECRET: 'def' })).toBe(true);
    expect(
      realEtsyCredentials({ ETSY_API_KEY: 'sandbox-keystring', ETSY_SHARED_SECRET: 'sandbox-shared-secret' }),
    ).toBe(false);
  });

  describe('the admin token', () => {
    it("on loopback: SANDBOX_ADMIN_TOKEN, else the local start's generated one, else refused", () => {
      expect(readOptions({ SANDBOX_ADMIN_TOKEN: 'eight-ch' }).adminToken).toBe('eight-ch');
      expect(readOptions({}, () => 'generated-local-token').adminToken).toBe('generated-local-token');
      expect(readOptions({ SANDBOX_HOST: '::1' }, () => 'generated-local-token').adminToken).toBe(
        'generated-local-token',
      );
      expect(() => readOptions({})).toThrow(/SANDBOX_ADMIN_TOKEN is required/);
      expect(() => readOptions({ SANDBOX_ADMIN_TOKEN: 'short' })).toThrow(/at least 8 characters/);
    });

    it('beyond loopback: required, never generated, never the old default or a short value', () => {
      const local = jest.fn(() => 'generated-local-token-0123456789');
      for (const host of ['0.0.0.0', '::', '10.0.0.5', 'sandbox']) {
        expect(() => readOptions({ SANDBOX_HOST: host }, local)).toThrow(
          /SANDBOX_ADMIN_TOKEN is required when the sandbox listens beyond loopback/,
        );
        expect(() => readOptions({ SANDBOX_HOST: host, SANDBOX_ADMIN_TOKEN: 'sandbox-admin' }, local)).toThrow(
          /not the old default/,
        );
        expect(() =>
          readOptions({ SANDBOX_HOST: host, SANDBOX_ADMIN_TOKEN: 'twenty-three-characters' }, local),
        ).toThrow(/at least 24 characters/);
        expect(readOptions({ SANDBOX_HOST: host, SANDBOX_ADMIN_TOKEN: TOKEN }, local).adminToken).toBe(TOKEN);
      }
      expect(local).not.toHaveBeenCalled();
    });

    it('tells loopback from the rest', () => {
      for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])
        expect(isLoopbackHost(host)).toBe(true);
      for (const host of ['0.0.0.0', '::', '', '10.0.0.1', 'sandbox', '127.0.0.1.nip.io'])
        expect(isLoopbackHost(host)).toBe(false);
    });
  });
});
