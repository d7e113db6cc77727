import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signature checks over a delivery's raw bytes, compared in constant time. Nothing here logs or
 * returns a signature or a secret.
 */

/** Etsy deliveries more than this far from our clock (either way) are refused (a.12: "reject stale timestamps"). */
export const ETSY_TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

function equalBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Printify (b.5): `X-Pfy-Signature: sha256=<hex>`, the lowercase hex HMAC-SHA256 of the raw
 * body keyed with the subscription's secret. A header in any other form does not verify.
 */
export function verifyPrintifySignature(rawBody: Buffer, header: string | undefined, secret: string): boolean {
  const match = /^sha256=([0-9a-fA-F]{64})$/.exec(header?.trim() ?? '');
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return equalBytes(Buffer.from(match[1], 'hex'), expected);
}

export interface StandardWebhookHeaders {
  id: string;
  timestamp: string;
  signature: string;
}

/**
 * Etsy (a.12, the Standard Webhooks scheme): HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.
 * {raw body}`, keyed with the portal secret minus `whsec_`, base64-decoded; base64 output.
 * `webhook-signature` holds space-separated entries; any one matching passes. An entry's `v1,`
 * prefix is stripped (its presence is unconfirmed); entries of other versions are skipped.
 */
export function verifyEtsySignature(rawBody: Buffer, headers: StandardWebhookHeaders, secret: string): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${headers.id}.${headers.timestamp}.`).update(rawBody).digest();
  let matched = false;
  for (const entry of headers.signature.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma !== -1 && entry.slice(0, comma) !== 'v1') continue;
    const value = comma === -1 ? entry : entry.slice(comma + 1);
    if (!/^[A-Za-z0-9+/]{43}=$/.test(value)) continue;
    // No early exit: every entry costs the same whether or not an earlier one matched.
    if (equalBytes(Buffer.from(value, 'base64'), expected)) matched = true;
  }
  return matched;
}

/** 'stale' (older than the tolerance), 'future' (ahead by more) or null when fresh. */
export function timestampProblem(
  timestampSeconds: number,
  nowMs: number,
  toleranceSeconds = ETSY_TIMESTAMP_TOLERANCE_SECONDS,
): 'stale' | 'future' | null {
  const skew = timestampSeconds - Math.floor(nowMs / 1000);
  if (skew < -toleranceSeconds) return 'stale';
  if (skew > toleranceSeconds) return 'future';
  return null;
}
