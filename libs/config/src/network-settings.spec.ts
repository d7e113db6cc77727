import { ConfigError, loadConfig } from './load-config';
import { effectiveProviders } from './providers';

const BASE = { NODE_ENV: 'test', APP_SECRET: 'a'.repeat(32) };

describe('PUBLIC_ORIGIN', () => {
  it('defaults to what `npm start` prints, and carries the Etsy callback', () => {
    expect(loadConfig(BASE).publicOrigin).toBe('http://localhost:5000');
    expect(loadConfig({ ...BASE, PORT: '6123' }).publicOrigin).toBe('http://localhost:6123');
    const config = loadConfig({ ...BASE, PUBLIC_ORIGIN: 'https://PodProfit.example.com:443/' });
    expect(config.publicOrigin).toBe('https://podprofit.example.com');
    expect(config.etsyRedirectUri).toBe('https://podprofit.example.com/api/connections/etsy/callback');
    // Demo mode serves the consent page on the same origin.
    expect(effectiveProviders(config).etsy.connectUrl).toBe('https://podprofit.example.com/sandbox/oauth/connect');
    expect(loadConfig({ ...BASE, PUBLIC_ORIGIN: 'http://127.0.0.1:5000' }).etsyRedirectUri).toBe(
      'http://127.0.0.1:5000/api/connections/etsy/callback',
    );
    // An explicit callback still wins.
    expect(
      loadConfig({ ...BASE, PUBLIC_ORIGIN: 'https://a.example', ETSY_REDIRECT_URI: 'https://b.example/cb' })
        .etsyRedirectUri,
    ).toBe('https://b.example/cb');
  });

  it.each([
    'localhost:5000',
    'ftp://x.example',
    'https://x.example/app',
    'https://x.example?x=1',
    'https://x.example#a',
    'https://user@x.example',
    'https://',
    'http://a b.example',
  ])('refuses %s, naming the variable', (value) => {
    expect(() => loadConfig({ ...BASE, PUBLIC_ORIGIN: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ...BASE, PUBLIC_ORIGIN: value })).toThrow(/PUBLIC_ORIGIN must be an http\(s\) origin/);
  });
});

describe('TRUST_PROXY', () => {
  it('is off unless set', () => {
    for (const off of [undefined, '', 'false', '0'])
      expect(loadConfig({ ...BASE, TRUST_PROXY: off }).trustedProxies).toBe(false);
  });

  it('takes a hop count or addresses and CIDRs', () => {
    expect(loadConfig({ ...BASE, TRUST_PROXY: '1' }).trustedProxies).toBe(1);
    expect(loadConfig({ ...BASE, TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,fd00::/8,loopback' }).trustedProxies).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'fd00::/8',
      'loopback',
    ]);
  });

  it.each([
    ['true', /would trust any client/],
    ['11', /at most 10/],
    ['10.0.0.0/33', /not: 10\.0\.0\.0\/33/],
    ['proxy.internal', /not: proxy\.internal/],
    ['10.0.0.1/8/1', /TRUST_PROXY must be a hop count/],
    ['-1', /TRUST_PROXY must be a hop count/],
  ])('refuses %s', (value, message) => {
    expect(() => loadConfig({ ...BASE, TRUST_PROXY: value })).toThrow(message);
  });
});
