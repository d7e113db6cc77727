import type { AppConfig } from './app-config';

/** The sandbox's fixed app credentials (not secrets: the sandbox accepts nothing else). */
export const SANDBOX_ETSY_KEYSTRING = 'sandbox-keystring';
export const SANDBOX_ETSY_SHARED_SECRET = 'sandbox-shared-secret';

/** Where the sandbox (services/sandbox) serves each provider, relative to SANDBOX_URL. */
export const SANDBOX_PATHS = {
  /** Etsy Open API v3 under /v3 and its token endpoint /v3/public/oauth/token. */
  etsyApi: '',
  /** The stand-in for Etsy's consent page. */
  etsyConnect: '/oauth/connect',
  /** Printify API v1 under /v1. */
  printifyApi: '',
  /** The ECB's rate files, at their real path. */
  ecbRates: '/stats/eurofxref',
} as const;

/** Where the gateway serves the sandbox's consent page in demo mode. */
export const SANDBOX_CONSENT_PROXY_PATH = '/sandbox/oauth/connect';

export type ProvidersMode = 'live' | 'sandbox';

export interface EffectiveProviders {
  /** `live` with Etsy app credentials configured, `sandbox` (demo mode) without. */
  mode: ProvidersMode;
  etsy: { apiUrl: string; connectUrl: string; keystring: string; sharedSecret: string; redirectUri: string };
  printify: { apiUrl: string };
  /** The folder of the ECB rate files (no credentials: the feed is public). */
  ecb: { ratesUrl: string };
}

type ProvidersConfig = Pick<
  AppConfig,
  | 'etsyCredentialsConfigured'
  | 'etsyRedirectUri'
  | 'ETSY_API_KEY'
  | 'ETSY_SHARED_SECRET'
  | 'ETSY_API_URL'
  | 'ETSY_CONNECT_URL'
  | 'PRINTIFY_API_URL'
  | 'ECB_RATES_URL'
  | 'SANDBOX_URL'
>;

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/**
 * The hosts and credentials every process uses for Etsy, Printify and the ECB feed. With both Etsy app
 * credentials set: the configured (real) hosts. Without them: demo mode, every provider URL
 * on the sandbox with its fixed credentials. The OAuth redirect URI is ours in both modes.
 */
export function effectiveProviders(config: ProvidersConfig): EffectiveProviders {
  const redirectUri = config.etsyRedirectUri;
  if (config.etsyCredentialsConfigured) {
    return {
      mode: 'live',
      etsy: {
        apiUrl: trimSlash(config.ETSY_API_URL),
        connectUrl: config.ETSY_CONNECT_URL,
        keystring: config.ETSY_API_KEY as string,
        sharedSecret: config.ETSY_SHARED_SECRET as string,
        redirectUri,
      },
      printify: { apiUrl: trimSlash(config.PRINTIFY_API_URL) },
      ecb: { ratesUrl: trimSlash(config.ECB_RATES_URL) },
    };
  }
  const sandbox = trimSlash(config.SANDBOX_URL);
  return {
    mode: 'sandbox',
    etsy: {
      apiUrl: `${sandbox}${SANDBOX_PATHS.etsyApi}`,
      // The sandbox listens on loopback; the visitor's browser reaches its consent page through
      // the gateway (demo/sandbox-consent.proxy.ts), on the origin Etsy redirects back to.
      connectUrl: `${new URL(redirectUri).origin}${SANDBOX_CONSENT_PROXY_PATH}`,
      keystring: SANDBOX_ETSY_KEYSTRING,
      sharedSecret: SANDBOX_ETSY_SHARED_SECRET,
      redirectUri,
    },
    printify: { apiUrl: `${sandbox}${SANDBOX_PATHS.printifyApi}` },
    ecb: { ratesUrl: `${sandbox}${SANDBOX_PATHS.ecbRates}` },
  };
}
