import { DISPLAY_CURRENCY_CODES } from '@pod/domain';
import type { MatchingStack, StackSeller } from './matching-stack';

/**
 * A canonical picture of what a stack stored and answers for its sellers, for comparing runs
 * with different replica counts (security plan item 33): one sorted list of lines per section,
 * keyed by the seller's label and the rows' natural keys (record ids are random UUIDs, so a
 * record is named by its sides). Volatile columns (ids, fetch and write times) are left out.
 */
export type Snapshot = Record<string, string[]>;

/** Every column but these goes into a synced row's content hash. */
const VOLATILE = `- 'user_id' - 'fetched_at' - 'created_at' - 'updated_at'`;

const SYNCED_TABLES: Record<string, string> = {
  etsy_receipt: `shop_id || ':' || receipt_id`,
  etsy_receipt_line: `shop_id || ':' || transaction_id`,
  etsy_payment: `shop_id || ':' || payment_id`,
  etsy_ledger_entry: `shop_id || ':' || entry_id`,
  printify_order: `shop_id || ':' || order_id`,
  printify_order_line: `shop_id || ':' || order_id || '#' || line_no`,
};

/** A record's sides as order_profit.record_sides spells them ("shop:receipt|shop:order", "" for a missing side). */
const RECORD_SIDES = `coalesce(etsy_shop_id || ':' || etsy_receipt_id, '') || '|' || coalesce(printify_shop_id || ':' || printify_order_id, '')`;

export async function snapshotOf(stack: MatchingStack, sellers: readonly StackSeller[]): Promise<Snapshot> {
  const snapshot: Snapshot = {};
  for (const seller of sellers) {
    const put = async (section: string, text: string) => {
      const rows = await stack.sql<{ line: string }>(text, [seller.userId]);
      snapshot[`${seller.label}:${section}`] = rows.map((row) => row.line).sort();
    };
    for (const [table, key] of Object.entries(SYNCED_TABLES)) {
      await put(
        table,
        `SELECT ${key} || ' ' || md5(((to_jsonb(t) ${VOLATILE}))::text) AS line FROM ${table} t WHERE user_id = $1`,
      );
    }
    await put(
      'records',
      `SELECT ${RECORD_SIDES} || ' ' || status || ' ' || coalesce(match_method, '-') || ' ' || coalesce(match_confidence::text, '-')
         || CASE WHEN archived_at IS NULL THEN '' ELSE ' archived' END
         || ' ' || md5(concat_ws('/', order_date::text, customer_name, product_title, product_sku)) AS line
       FROM order_record WHERE user_id = $1`,
    );
    // Issue 17: each receipt's additional Printify orders, by the record's sides.
    await put(
      'attached',
      `SELECT s.sides || ' ' || a.printify_shop_id || ':' || a.printify_order_id || ' ' || a.reason AS line
       FROM order_record_printify_order a JOIN (SELECT id, ${RECORD_SIDES} AS sides FROM order_record WHERE user_id = $1) s ON s.id = a.order_record_id
       WHERE a.user_id = $1`,
    );
    await put(
      'profits',
      `SELECT record_sides || ' ' || currency || ' ' || figures || ' ' || concat_ws(' ', coalesce(revenue_minor::text, '-'), coalesce(costs_minor::text, '-'),
         coalesce(net_profit_minor::text, '-')) || CASE WHEN has_estimated_fees THEN ' estimated' ELSE '' END
         || ' ' || inputs_hash || ' ' || md5(breakdown::text) AS line
       FROM order_profit WHERE user_id = $1`,
    );
    await put(
      'profit-sums',
      `SELECT currency || ' ' || figures || ' ' || count(*) || ' orders: ' || concat_ws(' ', coalesce(sum(revenue_minor)::text, '-'), coalesce(sum(costs_minor)::text, '-'),
         coalesce(sum(net_profit_minor)::text, '-')) AS line
       FROM order_profit WHERE user_id = $1 GROUP BY currency, figures`,
    );
    await put(
      'rates-used',
      `SELECT DISTINCT (line -> 'original' ->> 'currency') || '>' || p.currency || ' ' || (line ->> 'rate') || ' of ' || (line ->> 'rateDate') AS line
       FROM order_profit p, jsonb_array_elements((p.breakdown -> 'revenueLines') || (p.breakdown -> 'costLines')) AS line
       WHERE p.user_id = $1 AND line ->> 'rate' IS NOT NULL`,
    );
    const dashboards: string[] = [];
    for (const currency of DISPLAY_CURRENCY_CODES) {
      const answer = await stack.api<Record<string, unknown>>(
        'GET',
        `/api/dashboard/metrics?days=365&currency=${currency}`,
        { cookie: seller.cookie },
      );
      if (answer.status !== 200)
        throw new Error(`dashboard ${currency}: ${answer.status} ${JSON.stringify(answer.body)}`);
      dashboards.push(`${currency} ${canonicalJson(answer.body)}`);
    }
    snapshot[`${seller.label}:dashboard-365`] = dashboards;
  }
  return snapshot;
}

/** JSON with every object's keys sorted, at every depth. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The lines only one snapshot has, per section (at most `limit` each), for a readable failure. */
export function diffSnapshots(
  expected: Snapshot,
  actual: Snapshot,
  limit = 8,
): Record<string, { missing: string[]; extra: string[] }> {
  const diff: Record<string, { missing: string[]; extra: string[] }> = {};
  for (const section of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
    const want = new Set(expected[section] ?? []);
    const have = new Set(actual[section] ?? []);
    const missing = [...want].filter((line) => !have.has(line));
    const extra = [...have].filter((line) => !want.has(line));
    if (missing.length + extra.length > 0)
      diff[section] = { missing: missing.slice(0, limit), extra: extra.slice(0, limit) };
  }
  return diff;
}

/** The sections that hold the seller labelled `label`, with the label swapped for `as` (to compare two sellers of one tenant). */
export function sellerPart(snapshot: Snapshot, label: string, as = label): Snapshot {
  return Object.fromEntries(
    Object.entries(snapshot)
      .filter(([section]) => section.startsWith(`${label}:`))
      .map(([section, lines]) => [`${as}:${section.slice(label.length + 1)}`, lines]),
  );
}

/** How many records of each kind the snapshot holds (what the fixture exercises). */
export function recordKinds(snapshot: Snapshot, label: string): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const line of snapshot[`${label}:records`] ?? []) {
    const [sides, status, method, confidence, archived] = line.split(' ');
    const [receipt, order] = sides.split('|');
    const shape = receipt && order ? 'pair' : receipt ? 'lone-receipt' : 'lone-order';
    const fuzzyBand = method === 'fuzzy' ? (Number(confidence) >= 0.8 ? '' : '-review') : '';
    const kind = `${shape} ${status} ${method}${fuzzyBand}${archived === 'archived' ? ' archived' : ''}`;
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  return kinds;
}

/**
 * Every record has its figures in each display currency, computed for the sides it has now
 * (a row for old sides would read as "not computed"): the profit jobs are done.
 */
export async function staleProfits(stack: MatchingStack, seller: StackSeller): Promise<string[]> {
  const rows = await stack.sql<{ line: string }>(
    `SELECT ${RECORD_SIDES} || ' ' || c.currency AS line FROM order_record r CROSS JOIN unnest($2::text[]) AS c(currency)
     WHERE r.user_id = $1 AND NOT EXISTS (
       SELECT 1 FROM order_profit p WHERE p.order_record_id = r.id AND p.currency = c.currency AND p.record_sides = ${RECORD_SIDES.replace(/(etsy|printify)_/g, 'r.$1_')})`,
    [seller.userId, [...DISPLAY_CURRENCY_CODES]],
  );
  return rows.map((row) => row.line);
}

export interface SellerChoices {
  /** The lone receipt and the lone Printify order paired by hand (record ids before the pairing). */
  manual: { receiptRecordId: string; orderRecordId: string; sides: string };
  /** The exactly matched record archived. */
  archived: { recordId: string; sides: string };
}

/**
 * The seller's own decisions through the API, chosen by sides so every run makes the same ones:
 * the lowest lone receipt is matched by hand with the lowest lone Printify order, and the
 * lowest exact pair is archived.
 */
export async function decideByHand(stack: MatchingStack, seller: StackSeller): Promise<SellerChoices> {
  const pick = async (where: string, order: string) => {
    const rows = await stack.sql<{ id: string; sides: string }>(
      `SELECT id, ${RECORD_SIDES} AS sides FROM order_record WHERE user_id = $1 AND archived_at IS NULL AND ${where} ORDER BY ${order} LIMIT 1`,
      [seller.userId],
    );
    if (rows.length === 0) throw new Error(`${seller.label} has no record where ${where}: the fixture must have one`);
    return rows[0];
  };
  const receipt = await pick(`printify_order_id IS NULL AND match_method IS NULL`, 'etsy_receipt_id');
  const order = await pick(`etsy_receipt_id IS NULL AND match_method IS NULL`, 'printify_order_id');
  const exact = await pick(`match_method = 'exact'`, 'etsy_receipt_id');
  const matched = await stack.api<{ orders: { id: string }[] }>('POST', `/api/orders/${receipt.id}/match`, {
    cookie: seller.cookie,
    body: { withOrderId: order.id },
  });
  if (matched.status !== 200)
    throw new Error(`manual match refused: ${matched.status} ${JSON.stringify(matched.body)}`);
  const archived = await stack.api('POST', `/api/orders/${exact.id}/archive`, { cookie: seller.cookie });
  if (archived.status !== 200) throw new Error(`archive refused: ${archived.status} ${JSON.stringify(archived.body)}`);
  return {
    manual: {
      receiptRecordId: receipt.id,
      orderRecordId: order.id,
      sides: `${receipt.sides.split('|')[0]}|${order.sides.split('|')[1]}`,
    },
    archived: { recordId: exact.id, sides: exact.sides },
  };
}
