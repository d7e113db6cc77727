import {
  asRecord,
  child,
  fail,
  mapEach,
  optId,
  optString,
  reqString,
  type Ctx,
  type MappedList,
} from '../payload/read';

/**
 * Printify webhook subscriptions (integrations.md b.5): `GET /v1/shops/{shop_id}/webhooks.json`
 * answers `[{topic, url, shop_id, id}]`; `POST` creates one from `{topic, url, secret?}`;
 * `DELETE …/webhooks/{id}.json?host=` removes one. The token needs the `webhooks.read` and
 * `webhooks.write` scopes.
 */
export const PRINTIFY_ORDER_TOPICS = [
  'order:created',
  'order:updated',
  'order:sent-to-production',
  'order:shipment:created',
  'order:shipment:delivered',
] as const;
export type PrintifyOrderTopic = (typeof PRINTIFY_ORDER_TOPICS)[number];

export interface PrintifyWebhook {
  id: string;
  topic: string;
  url: string;
  /** The shop the subscription belongs to, as text (null when the payload leaves it out). */
  shopId: string | null;
}

export interface PrintifyWebhookInput {
  topic: string;
  /** Where Printify posts deliveries (https in production). */
  url: string;
  /** Signs each delivery (`X-Pfy-Signature: sha256=<hex HMAC of the raw body>`); never logged. */
  secret?: string;
}

const root = (): Ctx => ({ provider: 'printify', path: '' });

/** Printify ids are 24 hex digits; accept any short alphanumeric id, as text. */
function webhookId(rec: Readonly<Record<string, unknown>>, ctx: Ctx): string {
  const value = rec.id;
  const at = child(ctx, 'id');
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  if (typeof value === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value)) return value;
  return fail(at, value === undefined || value === null ? 'is missing' : 'is not an id');
}

export function mapPrintifyWebhook(payload: unknown, ctx: Ctx = root()): PrintifyWebhook {
  const rec = asRecord(payload, ctx);
  return {
    id: webhookId(rec, ctx),
    topic: reqString(rec, 'topic', ctx),
    url: reqString(rec, 'url', ctx),
    shopId: optId(rec, 'shop_id', ctx),
  };
}

export function mapPrintifyWebhooks(payload: unknown): MappedList<PrintifyWebhook> {
  const ctx = root();
  if (!Array.isArray(payload)) fail(ctx, 'is not an array of webhooks');
  return mapEach(payload, ctx, 'id', mapPrintifyWebhook);
}

/**
 * The subscription a create made. Printify's answer to a create is not documented beyond the
 * list's shape: the id is required (we need it to delete), topic, URL and shop default to what
 * was sent.
 */
export function mapCreatedPrintifyWebhook(
  payload: unknown,
  sent: PrintifyWebhookInput,
  shopId: string,
): PrintifyWebhook {
  const ctx = root();
  const rec = asRecord(payload, ctx);
  return {
    id: webhookId(rec, ctx),
    topic: optString(rec, 'topic', ctx) ?? sent.topic,
    url: optString(rec, 'url', ctx) ?? sent.url,
    shopId: optId(rec, 'shop_id', ctx) ?? shopId,
  };
}
