/**
 * WEBHOOK_PUBLIC_URL: the gateway's base URL as Printify and Etsy reach it from the internet
 * (`https://podprofit.example.com`, perhaps with a path prefix), under which they post to
 * `/api/webhooks/…`. An http(s) URL without credentials, query or fragment; https whenever real
 * providers post to it (live mode). In demo mode the sandbox posts from the same machine (or
 * compose network), so http is allowed there. Returns the problem, or null.
 */
export function webhookPublicUrlProblem(value: unknown, live: boolean): string | null {
  const message = live
    ? 'WEBHOOK_PUBLIC_URL must be an https URL without query or fragment (e.g. https://podprofit.example.com): real providers post to it'
    : 'WEBHOOK_PUBLIC_URL must be an http(s) URL without query or fragment (e.g. http://localhost:5000)';
  if (typeof value !== 'string' || !/^https?:\/\/[^\s?#@]+$/i.test(value) || !URL.canParse(value)) return message;
  const url = new URL(value);
  if (!url.hostname || (live && url.protocol !== 'https:')) return message;
  return null;
}

/** The base without a trailing slash: `${base}/api/webhooks/printify/<key>`. */
export function webhookBase(value: string): string {
  return value.replace(/\/+$/, '');
}

/**
 * ETSY_WEBHOOK_SECRET: the signing secret Etsy's developer portal shows for the app's webhook
 * endpoint, `whsec_` followed by base64 (integrations.md a.12). Returns the problem, or null.
 */
export function etsyWebhookSecretProblem(value: unknown): string | null {
  if (typeof value !== 'string' || !/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(value))
    return 'ETSY_WEBHOOK_SECRET must be the portal secret: "whsec_" followed by base64';
  if (Buffer.from(value.slice('whsec_'.length), 'base64').length < 16)
    return 'ETSY_WEBHOOK_SECRET must decode to at least 16 bytes after "whsec_"';
  return null;
}
