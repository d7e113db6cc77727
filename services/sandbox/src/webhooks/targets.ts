/**
 * Where the sandbox may send webhook deliveries. Real Printify and Etsy post to any public URL a
 * developer registers; the sandbox is a local test double reached only by the product, so it
 * posts only to http(s) URLs on loopback or on a host the operator named (SANDBOX_WEBHOOK_HOSTS,
 * and the hosts of the configured Etsy webhook URL): it cannot be made to post to arbitrary hosts.
 * Hosts are compared by name; nothing is resolved.
 */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Why `raw` is not a URL the sandbox will post to, or null when it is. */
export function deliveryUrlProblem(raw: unknown, allowedHosts: ReadonlySet<string>): string | null {
  if (typeof raw !== 'string' || raw.length === 0) return 'The url field is required.';
  if (raw.length > MAX_WEBHOOK_URL_LENGTH)
    return `The url may not be greater than ${MAX_WEBHOOK_URL_LENGTH} characters.`;
  if (!URL.canParse(raw)) return 'The url format is invalid.';
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'The url must be an http or https URL.';
  if (url.username || url.password) return 'The url must not carry credentials.';
  if (!isLoopbackHost(url.hostname) && !allowedHosts.has(url.hostname.toLowerCase())) {
    return `The sandbox delivers webhooks only to loopback hosts or SANDBOX_WEBHOOK_HOSTS; ${url.hostname} is neither.`;
  }
  return null;
}

/** The host names (lower-case) deliveries may go to besides loopback. */
export function allowedWebhookHosts(
  configured: readonly string[],
  configuredUrls: ReadonlyArray<string | undefined>,
): Set<string> {
  const hosts = new Set(configured.map((h) => h.trim().toLowerCase()).filter(Boolean));
  for (const url of configuredUrls) if (url && URL.canParse(url)) hosts.add(new URL(url).hostname.toLowerCase());
  return hosts;
}
