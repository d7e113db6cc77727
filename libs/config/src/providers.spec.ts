import { ConfigError, loadConfig } from './load-config';
import { effectiveProviders, SANDBOX_ETSY_KEYSTRING, SANDBOX_ETSY_SHARED_SECRET } from './providers';

const BASE = { NODE_ENV: 'test', APP_SECRET: 'a'.repeat(32) };
const LIVE = { ...BASE, ETSY_API_KEY: 'abc123keystring', ETSY_SHARED_SECRET: 's3cr3t' };

describe('provider settings', () => {
  it('defaults: no Etsy credentials, real hosts, redirect URI derived from PORT', () => {
    const config = loadConfig(BASE);
    expect(config.etsyCredentialsConfigured).toBe(false);
    expect(config.ETSY_API_URL).toBe('https://openapi.etsy.com');
    expect(config.ETSY_CONNECT_URL).toBe('https://www.etsy.com/oauth/connect');
    expect(config.PRINTIFY_API_URL).toBe('https://api.printify.com');
    expect(config.ECB_RATES_URL).toBe('https://www.ecb.europa.eu/stats/eurofxref');
    expect(config.SANDBOX_URL).toBe('http://127.0.0.1:5200');
    expect(config.etsyRedirectUri).toBe('http://localhost:5000/api/connections/etsy/callback');
    expect(loadConfig({ ...BASE, PORT: '6123' }).etsyRedirectUri).toBe(
      'http://localhost:6123/api/connections/etsy/callback',
    );
    expect(
      loadConfig({ ...BASE, ETSY_REDIRECT_URI: 'https://app.example.com/api/connections/etsy/callback' })
        .etsyRedirectUri,
    ).toBe('https://app.example.com/api/connections/etsy/callback');
  });

  it('needs both Etsy credentials to be live, and refuses one without the other', () => {
    expect(loadConfig(LIVE).etsyCredentialsConfigured).toBe(true);
    expect(() => loadConfig({ ...BASE, ETSY_API_KEY: 'abc' })).toThrow(
      /ETSY_SHARED_SECRET must be set with ETSY_API_KEY/,
    );
    expect(() => loadConfig({ ...BASE, ETSY_SHARED_SECRET: 'abc' })).toThrow(
      /ETSY_API_KEY must be set with ETSY_SHARED_SECRET/,
    );
    // Empty counts as unset.
    expect(loadConfig({ ...BASE, ETSY_API_KEY: '', ETSY_SHARED_SECRET: '' }).etsyCredentialsConfigured).toBe(false);
  });

  it.each([
    ['ETSY_REDIRECT_URI', 'ftp://x/callback'],
    ['ETSY_REDIRECT_URI', 'https://x/callback?returnTo=evil'],
    ['ETSY_API_URL', 'not a url'],
    ['ETSY_CONNECT_URL', 'javascript:alert(1)'],
    ['PRINTIFY_API_URL', 'api.printify.com'],
    ['ECB_RATES_URL', 'www.ecb.europa.eu/stats/eurofxref'],
    ['SANDBOX_URL', 'localhost:5200'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadConfig({ ...BASE, [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ...BASE, [name]: value })).toThrow(new RegExp(name));
  });
});

describe('effectiveProviders', () => {
  it('live: the configured hosts and credentials', () => {
    const config = loadConfig({
      ...LIVE,
      ETSY_API_URL: 'https://api.etsy.com/',
      PRINTIFY_API_URL: 'https://printify.test/',
      ECB_RATES_URL: 'https://ecb.test/rates/',
    });
    expect(effectiveProviders(config)).toEqual({
      mode: 'live',
      etsy: {
        apiUrl: 'https://api.etsy.com',
        connectUrl: 'https://www.etsy.com/oauth/connect',
        keystring: 'abc123keystring',
        sharedSecret: 's3cr3t',
        redirectUri: 'http://localhost:5000/api/connections/etsy/callback',
      },
      printify: { apiUrl: 'https://printify.test' },
      ecb: { ratesUrl: 'https://ecb.test/rates' },
    });
  });

  it('sandbox (demo mode): every provider on SANDBOX_URL with the sandbox credentials, the consent page through the gateway', () => {
    const config = loadConfig({
      ...BASE,
      SANDBOX_URL: 'http://127.0.0.1:6200/',
      ETSY_API_URL: 'https://ignored.example',
      PORT: '7000',
    });
    expect(effectiveProviders(config)).toEqual({
      mode: 'sandbox',
      etsy: {
        apiUrl: 'http://127.0.0.1:6200',
        connectUrl: 'http://localhost:7000/sandbox/oauth/connect',
        keystring: SANDBOX_ETSY_KEYSTRING,
        sharedSecret: SANDBOX_ETSY_SHARED_SECRET,
        redirectUri: 'http://localhost:7000/api/connections/etsy/callback',
      },
      printify: { apiUrl: 'http://127.0.0.1:6200' },
      ecb: { ratesUrl: 'http://127.0.0.1:6200/stats/eurofxref' },
    });
  });
});
