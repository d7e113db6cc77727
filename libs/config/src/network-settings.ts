import { isIP } from 'node:net';

/**
 * The public origin as browsers see it (`https://app.example.com`, `http://localhost:5000`):
 * scheme, host and optional port, nothing else. Returns the origin in its canonical form
 * (lower-case host, no default port), or undefined when the value is not such an origin.
 */
export function canonicalOrigin(value: string): string | undefined {
  if (!/^https?:\/\/[^/?#@\s]+\/?$/i.test(value) || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (!url.hostname) return undefined;
  return url.origin;
}

/** Names proxy-addr (Fastify's trustProxy) understands for well-known ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const MAX_PROXY_HOPS = 10;

/**
 * TRUST_PROXY: which peers may tell us the client's address (X-Forwarded-For) and scheme.
 * - unset, empty, `false` or `0`: none (clients connect directly);
 * - a hop count `1`…`10`: that many proxies in front (an Ingress controller is 1);
 * - a comma-separated list of addresses, CIDRs or `loopback`/`linklocal`/`uniquelocal`.
 * `true` (trust any peer) is refused: any client could then choose its own address.
 * Returns what Fastify's `trustProxy` takes, or a problem description.
 */
export function parseTrustProxy(value: string | undefined): { trust: false | number | string[] } | { problem: string } {
  const raw = (value ?? '').trim();
  if (raw === '' || raw === 'false' || raw === '0') return { trust: false };
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > MAX_PROXY_HOPS) return { problem: `TRUST_PROXY hop count must be at most ${MAX_PROXY_HOPS}` };
    return { trust: hops };
  }
  if (raw === 'true')
    return {
      problem:
        'TRUST_PROXY=true would trust any client; give the number of proxies in front or their addresses (CIDRs)',
    };
  const entries = raw.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isAddressOrRange(entry));
  if (bad.length > 0) {
    return {
      problem: `TRUST_PROXY must be a hop count or a comma-separated list of IP addresses, CIDRs, loopback, linklocal or uniquelocal (not: ${bad.join(', ')})`,
    };
  }
  return { trust: entries };
}

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}
