import { parseJsonPreservingBigIntegers, parsePrintifyTime } from '@pod/integrations';
import { jsonShapeProblem } from '../http/security';

/**
 * The bodies of signed deliveries, read defensively (only after the signature holds). Each
 * parser returns the fields we use or a short problem (shown in the 400, never the input).
 */

/** Deliveries are small; these bound what a (signed) body can make us walk. */
const SHAPE_LIMITS = { maxDepth: 16, maxFields: 4_096 };

type Rec = Record<string, unknown>;

function parseObject(raw: Buffer): Rec | string {
  const text = raw.toString('utf8');
  if (text.trim() === '') return 'The delivery has no body.';
  if (jsonShapeProblem(text, SHAPE_LIMITS)) return 'The delivery body is nested too deeply or has too many fields.';
  let value: unknown;
  try {
    value = parseJsonPreservingBigIntegers(text);
  } catch {
    return 'The delivery body is not valid JSON.';
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Rec)
    : 'The delivery body is not a JSON object.';
}

/** A numeric id (number or digits) as text. */
function idText(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  if (typeof value === 'string' && /^\d{1,19}$/.test(value)) return value;
  return null;
}

function text(value: unknown, max = 200): string | null {
  return typeof value === 'string' && value.length > 0 && value.length <= max ? value : null;
}

export interface PrintifyDelivery {
  /** The event's uuid: the delivery id we deduplicate on. */
  id: string;
  /** The topic, e.g. `order:updated`. */
  type: string;
  createdAt: Date | null;
  resource: {
    /** Order id (24 hex), product id, or a shop id. */
    id: string;
    type: string;
    /** `data.shop_id` when sent (the docs' examples send it; the event table says it may be absent). */
    shopId: string | null;
    /** `data.status` of `order:updated`. */
    status: string | null;
  };
}

/**
 * Printify's envelope (b.5): `{id, type, created_at, resource: {id, type, data?}}`. `data` is
 * optional; `created_at` is read when it has the documented form.
 */
export function parsePrintifyDelivery(raw: Buffer): PrintifyDelivery | string {
  const body = parseObject(raw);
  if (typeof body === 'string') return body;
  const id = text(body.id);
  const type = text(body.type, 100);
  const resource =
    body.resource !== null && typeof body.resource === 'object' && !Array.isArray(body.resource)
      ? (body.resource as Rec)
      : null;
  if (!id || !/^[A-Za-z0-9_.-]+$/.test(id)) return 'The delivery has no event id.';
  if (!type) return 'The delivery has no type.';
  if (!resource) return 'The delivery has no resource.';
  const resourceId = typeof resource.id === 'number' ? idText(resource.id) : text(resource.id, 64);
  const resourceType = text(resource.type, 100);
  if (!resourceId || !resourceType) return 'The delivery resource has no id or type.';
  const data =
    resource.data !== null && typeof resource.data === 'object' && !Array.isArray(resource.data)
      ? (resource.data as Rec)
      : {};
  return {
    id,
    type,
    createdAt: typeof body.created_at === 'string' ? parsePrintifyTime(body.created_at) : null,
    resource: { id: resourceId, type: resourceType, shopId: idText(data.shop_id), status: text(data.status, 100) },
  };
}

export interface EtsyDelivery {
  eventType: string;
  shopId: string;
  receiptId: string;
}

/**
 * Etsy's flat body (a.12): `{event_type, resource_url, shop_id}`. The receipt is named only by
 * `resource_url` (`…/v3/application/shops/<shop_id>/receipts/<receipt_id>`), which must name the
 * same shop. We never fetch that URL: the worker asks our configured Etsy host by ids.
 */
export function parseEtsyDelivery(raw: Buffer): EtsyDelivery | string {
  const body = parseObject(raw);
  if (typeof body === 'string') return body;
  const eventType = text(body.event_type, 100);
  const shopId = idText(body.shop_id);
  const resourceUrl = text(body.resource_url, 2048);
  if (!eventType) return 'The delivery has no event_type.';
  if (!shopId) return 'The delivery has no shop_id.';
  if (!resourceUrl || !URL.canParse(resourceUrl)) return 'The delivery has no resource_url.';
  const match = /\/v3\/application\/shops\/(\d{1,19})\/receipts\/(\d{1,19})\/?$/.exec(new URL(resourceUrl).pathname);
  if (!match) return 'The resource_url names no receipt.';
  if (match[1] !== shopId) return 'The resource_url names another shop.';
  return { eventType, shopId, receiptId: match[2] };
}
