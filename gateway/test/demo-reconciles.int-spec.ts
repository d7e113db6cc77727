import type {
  DashboardMetricsResponse,
  MatchingPageResponse,
  OrderDetailsResponse,
  OrdersPageResponse,
  PayoutsPageResponse,
} from '@pod/contracts';
import { freePort } from '@pod/testing';
import { MatchingStack, SpawnedSandbox, type SandboxTenant, type StackSeller } from './support/matching-stack';

/**
 * Issue 17's acceptance on sandbox sellers synced by the real, built workers (docs/adr/0024–0027):
 * the "Try the demo" seller (dev-login, a random shop currency), and sellers of the sandbox's
 * named profiles driven as tenants: a US seller, a UK seller with a GBP payment account listing
 * in USD, and a VAT-registered UK seller. After the syncs, matching and profit runs settled:
 * every deposit reconciles to 0.00 with no explanation, the unmatched list holds only orders that
 * need the seller (and the sandbox's reprints and splits sit on their receipts), and, for a
 * seller whose every amount is in one currency, the Dashboard's profit after shop costs equals
 * an independent sum straight from the stored rows.
 */
jest.setTimeout(420_000);

let sandbox: SpawnedSandbox;
let stack: MatchingStack;
const sellers: Record<string, StackSeller> = {};

async function profileSeller(label: string, profile: string): Promise<StackSeller> {
  const tenant = await sandbox.admin<SandboxTenant>('POST', '/tenants', {
    seed: `demo-reconciles-${label}`,
    profile,
    months: 3,
    ordersPerMonth: 60,
    printifyShops: 2,
  });
  const seller = await stack.signUp(label, tenant);
  await stack.connect(seller);
  return seller;
}

async function demoSeller(): Promise<StackSeller> {
  const login = await fetch(`${stack.baseUrl}/api/auth/dev-login`, {
    method: 'POST',
    headers: { origin: stack.baseUrl, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
    body: '{}',
  });
  if (login.status !== 201) throw new Error(`dev-login refused: ${login.status} ${await login.text()}`);
  const cookie = (login.headers.getSetCookie().find((c) => c.startsWith('podprofit_session=')) as string).split(';')[0];
  const { id } = ((await login.json()) as { user: { id: string } }).user;
  const [row] = await stack.sql<{ sandbox_tenant_id: string }>('SELECT sandbox_tenant_id FROM app_user WHERE id = $1', [
    id,
  ]);
  const tenant = await sandbox.admin<SandboxTenant>('GET', `/tenants/${row.sandbox_tenant_id}`);
  return { label: 'demo', email: '', cookie, userId: id, tenant };
}

beforeAll(async () => {
  const port = await freePort();
  sandbox = await SpawnedSandbox.start([`http://127.0.0.1:${port}/api/connections/etsy/callback`]);
  stack = await MatchingStack.start({ replicas: 1, port, sandbox });
  sellers.demo = await demoSeller();
  sellers.us = await profileSeller('us', 'us-seller');
  sellers.ukUsd = await profileSeller('ukusd', 'uk-usd-listing');
  sellers.ukVat = await profileSeller('ukvat', 'uk-vat-registered');
  for (const seller of Object.values(sellers)) await stack.syncsDone(seller, 300_000);
  await stack.settled(Object.values(sellers), 300_000);
}, 900_000);

afterAll(async () => {
  await stack?.stop();
  await sandbox?.stop();
});

const LABELS = ['demo', 'us', 'ukUsd', 'ukVat'] as const;

async function get<T>(seller: StackSeller, path: string): Promise<T> {
  const answer = await stack.api<T>('GET', path, { cookie: seller.cookie });
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

describe.each(LABELS)('the %s seller after the syncs, matching and profits settled', (label) => {
  it('has every Etsy deposit reconcile to 0.00, with no explanation listed', async () => {
    const seller = sellers[label];
    const deposits: PayoutsPageResponse['payouts'] = [];
    for (let page = 1; ; page += 1) {
      const body = await get<PayoutsPageResponse>(seller, `/api/payouts?page=${page}&pageSize=50`);
      deposits.push(...body.payouts);
      if (deposits.length >= body.total || body.payouts.length === 0) break;
    }
    expect(deposits.length).toBeGreaterThan(0);
    const off = deposits
      .filter((d) => d.difference?.minor !== 0 || d.reconciled !== true || d.explanations.length > 0)
      .map((d) => ({ date: d.date, amount: d.amount, difference: d.difference, explanations: d.explanations }));
    expect(off).toEqual([]);
  });

  it('shows as other Etsy costs exactly the ledger entries no receipt carries (in the payment account’s currency, no conversion)', async () => {
    const seller = sellers[label];
    const currencies = await stack.sql<{ currency: string }>(
      'SELECT DISTINCT currency FROM etsy_ledger_entry WHERE user_id = $1',
      [seller.userId],
    );
    expect(currencies).toHaveLength(1);
    const dashboard = await get<DashboardMetricsResponse>(
      seller,
      `/api/dashboard/metrics?days=365&currency=${currencies[0].currency}`,
    );
    const [ledger] = await stack.sql<{ shop: string }>(
      `SELECT coalesce(sum(amount_minor), 0)::text AS shop FROM etsy_ledger_entry
        WHERE user_id = $1 AND receipt_id IS NULL AND lower(ledger_type) <> ALL($2::text[])`,
      [seller.userId, NOT_PROFIT_TYPES],
    );
    expect(dashboard.otherEtsyCosts.withoutRate).toBe(0);
    expect(dashboard.otherEtsyCosts.total.minor).toBe(-Number(ledger.shop));
  });

  it('lists as unmatched only orders that need the seller, and keeps reprints and splits on their receipts', async () => {
    const seller = sellers[label];
    const unmatched: OrdersPageResponse['orders'] = [];
    let filteredTotal = 0;
    for (let page = 1; ; page += 1) {
      const body = await get<OrdersPageResponse>(seller, `/api/orders?status=unmatched&page=${page}&pageSize=100`);
      unmatched.push(...body.orders);
      filteredTotal = body.filteredTotal;
      if (unmatched.length >= body.filteredTotal || body.orders.length === 0) break;
    }
    const reasons: string[] = [];
    for (const row of unmatched) {
      if (row.etsyReceiptId) {
        const [receipt] = await stack.sql<{ physical: number; named_by: number }>(
          `SELECT (SELECT count(*)::int FROM etsy_receipt_line l
                    WHERE l.user_id = r.user_id AND l.receipt_id = r.receipt_id AND NOT l.is_digital) AS physical,
                  (SELECT count(*)::int FROM printify_order p
                    WHERE p.user_id = r.user_id AND r.receipt_id IN (p.shop_order_id, p.shop_order_label)) AS named_by
             FROM etsy_receipt r WHERE r.user_id = $1 AND r.receipt_id = $2`,
          [seller.userId, row.etsyReceiptId],
        );
        if (receipt.physical === 0) reasons.push(`receipt ${row.etsyReceiptId} is digital only`);
        if (receipt.named_by > 0)
          reasons.push(`receipt ${row.etsyReceiptId} is named by ${receipt.named_by} Printify orders`);
      } else if (row.printifyOrderId) {
        const [order] = await stack.sql<{
          order_type: string;
          shop_order_id: string | null;
          status: string;
          cost: string;
          names_receipt: boolean;
          is_reprint: boolean;
        }>(
          `SELECT p.order_type, p.shop_order_id, p.status, p.is_reprint,
                  (p.line_cost_minor + p.line_shipping_minor + p.total_tax_minor)::text AS cost,
                  EXISTS (SELECT 1 FROM etsy_receipt r WHERE r.user_id = p.user_id
                           AND r.receipt_id IN (p.shop_order_id, p.shop_order_label)) AS names_receipt
             FROM printify_order p WHERE p.user_id = $1 AND p.order_id = $2`,
          [seller.userId, row.printifyOrderId],
        );
        if (['sample', 'manual'].includes(order.order_type) && !order.shop_order_id)
          reasons.push(`Printify ${row.printifyOrderId} is a ${order.order_type} order`);
        if (order.status.replace(/_/g, '-') === 'canceled' && Number(order.cost) === 0 && !order.names_receipt)
          reasons.push(`Printify ${row.printifyOrderId} is canceled and empty`);
        if (order.names_receipt) reasons.push(`Printify ${row.printifyOrderId} names a stored receipt`);
      }
    }
    expect(reasons).toEqual([]);

    // The Matching page, month by month, lists as unmatched the very same orders.
    const months = await stack.sql<{ month: string }>(
      `SELECT DISTINCT to_char(order_date AT TIME ZONE 'UTC', 'YYYY-MM') AS month
         FROM order_record WHERE user_id = $1 AND order_date IS NOT NULL ORDER BY 1`,
      [seller.userId],
    );
    const onMatchingPage: string[] = [];
    for (const { month } of months)
      for (let page = 1; ; page += 1) {
        const body = await get<MatchingPageResponse>(
          seller,
          `/api/matching/orders?status=unmatched&month=${month}&page=${page}`,
        );
        onMatchingPage.push(...body.orders.map((row) => row.id));
        if (page >= body.pageCount) break;
      }
    expect(onMatchingPage.sort()).toEqual(unmatched.map((row) => row.id).sort());

    // The Dashboard's count (a year: every order of the sandbox's months) is the list's.
    const dashboard = await get<DashboardMetricsResponse>(seller, '/api/dashboard/metrics?days=365');
    expect(dashboard.unmatchedOrders).toBe(filteredTotal);

    // Every Printify order naming a stored receipt (reprints and splits name their original's) is on that receipt's order.
    const stray = await stack.sql<{ order_id: string; receipt_id: string; is_reprint: boolean }>(
      `SELECT p.order_id, r.receipt_id, p.is_reprint
         FROM printify_order p
         JOIN etsy_receipt r ON r.user_id = p.user_id AND r.receipt_id IN (p.shop_order_id, p.shop_order_label)
        WHERE p.user_id = $1
          AND NOT EXISTS (
            SELECT 1 FROM order_record o
             WHERE o.user_id = p.user_id AND o.etsy_receipt_id = r.receipt_id
               AND (o.printify_order_id = p.order_id
                    OR EXISTS (SELECT 1 FROM order_record_printify_order a
                                WHERE a.user_id = o.user_id AND a.order_record_id = o.id AND a.printify_order_id = p.order_id)))`,
      [seller.userId],
    );
    expect(stray).toEqual([]);
    const [several] = await stack.sql<{ receipts: number }>(
      `SELECT count(DISTINCT order_record_id)::int AS receipts FROM order_record_printify_order WHERE user_id = $1`,
      [seller.userId],
    );
    if (label !== 'demo') expect(several.receipts).toBeGreaterThan(0);
  });
});

/** Ledger types that are no profit: the sale and refunds to the buyer (revenue comes from the receipt), sales tax Etsy remits, and money moved to the bank or paid in by card. */
const NOT_PROFIT_TYPES = [
  'payment_gross',
  'refund_gross',
  'refund',
  'sales_tax',
  'sales_tax_refund',
  'disburse2',
  'billing_payment',
  'seller_onboarding_fee_payment',
];

/**
 * Profit after shop costs, summed straight from the stored rows, for a seller whose receipts,
 * ledger and Printify charges are all in one currency (so no conversion rounding enters):
 *
 *   revenue  = Σ over paid receipts that are not canceled or fully refunded of
 *              (subtotal + shipping + gift wrap) − the refunds' pre-tax share, where
 *              subtotal = items after coupon discounts, and the pre-tax share of `refunded`
 *              (what the buyer got back, tax included) is refunded × pre-tax ÷ (pre-tax +
 *              sales tax + VAT), half to even; sales tax and VAT Etsy collects are never revenue;
 *   + Σ every ledger entry that is neither the sale, a refund to the buyer, sales tax, nor a
 *     deposit or card payment: order fees, listing fees, VAT on fees, Etsy Ads, subscriptions,
 *     labels, credits, unclassified (signed, so charges are negative and credits positive);
 *   − Σ Printify charges of every order not canceled: line cost × quantity (per unit) or as
 *     sent (per line) + line shipping, of lines not canceled, + the order's tax.
 */
interface IndependentSums {
  revenue: number;
  /** Signed ledger entries linked to a receipt (order fees, listing fees of sales, their VAT). */
  orderLedger: number;
  /** Signed ledger entries no receipt carries (Etsy Ads, subscriptions, labels, credits…). */
  shopLedger: number;
  /** Printify charges of orders on a receipt, and of the others (samples, manual, unattached). */
  printifyOnReceipts: number;
  printifyAlone: number;
}

/**
 * A receipt awaiting its Printify order with nothing to estimate its cost from (ADR 0031): out of
 * the Dashboard's totals, so out of the identity (its revenue and its ledger fees).
 */
const AWAITING_SQL = (shopId: string, receiptId: string) => `EXISTS (
  SELECT 1 FROM order_record o JOIN order_profit p ON p.order_record_id = o.id AND p.user_id = o.user_id
   WHERE o.user_id = $1 AND o.etsy_shop_id = ${shopId} AND o.etsy_receipt_id = ${receiptId} AND p.printify_cost = 'awaiting')`;

async function independentSums(seller: StackSeller, costReading: 'per_unit' | 'per_line'): Promise<IndependentSums> {
  const [row] = await stack.sql<Record<keyof IndependentSums, string>>(
    `WITH receipts AS (
       SELECT (subtotal_minor + total_shipping_minor + gift_wrap_minor)::numeric AS pretax,
              (subtotal_minor + total_shipping_minor + gift_wrap_minor + total_tax_minor + total_vat_minor)::numeric AS paid,
              greatest(refunded_minor, 0)::numeric AS refunded
         FROM etsy_receipt
        WHERE user_id = $1 AND is_paid AND lower(trim(status)) NOT IN ('canceled', 'cancelled', 'fully refunded')
          AND NOT ${AWAITING_SQL('etsy_receipt.shop_id', 'etsy_receipt.receipt_id')}),
     -- refunded × pretax ÷ paid as a whole quotient and remainder, rounded half to even below.
     shares AS (
       SELECT pretax, paid, refunded, div(refunded * pretax, nullif(paid, 0)) AS q,
              refunded * pretax - div(refunded * pretax, nullif(paid, 0)) * paid AS r
         FROM receipts),
     charges AS (
       SELECT p.order_id,
              EXISTS (SELECT 1 FROM order_record o
                       WHERE o.user_id = p.user_id AND o.etsy_receipt_id IS NOT NULL
                         AND (o.printify_order_id = p.order_id
                              OR EXISTS (SELECT 1 FROM order_record_printify_order a
                                          WHERE a.user_id = o.user_id AND a.order_record_id = o.id
                                            AND a.printify_order_id = p.order_id))) AS on_receipt,
              p.total_tax_minor + (SELECT coalesce(sum(CASE WHEN $3 = 'per_unit' THEN l.cost_minor * l.quantity
                                                             ELSE l.cost_minor END + l.shipping_minor), 0)
                                     FROM printify_order_line l
                                    WHERE l.user_id = p.user_id AND l.shop_id = p.shop_id AND l.order_id = p.order_id
                                      AND replace(lower(coalesce(l.status, '')), '_', '-') <> 'canceled') AS charge
         FROM printify_order p
        WHERE p.user_id = $1 AND replace(lower(p.status), '_', '-') <> 'canceled')
     SELECT
       (SELECT coalesce(sum(pretax - CASE WHEN refunded = 0 OR pretax <= 0 THEN 0
                                          WHEN paid <= 0 THEN least(refunded, pretax)
                                          ELSE least(pretax, q + CASE WHEN 2 * r > paid OR (2 * r = paid AND mod(q, 2) = 1)
                                                                      THEN 1 ELSE 0 END) END), 0)
          FROM shares)::text AS revenue,
       (SELECT coalesce(sum(amount_minor), 0) FROM etsy_ledger_entry
         WHERE user_id = $1 AND receipt_id IS NOT NULL AND lower(ledger_type) <> ALL($2::text[])
           AND NOT ${AWAITING_SQL('etsy_ledger_entry.shop_id', 'etsy_ledger_entry.receipt_id')})::text AS "orderLedger",
       (SELECT coalesce(sum(amount_minor), 0) FROM etsy_ledger_entry
         WHERE user_id = $1 AND receipt_id IS NULL AND lower(ledger_type) <> ALL($2::text[]))::text AS "shopLedger",
       (SELECT coalesce(sum(charge), 0) FROM charges WHERE on_receipt)::text AS "printifyOnReceipts",
       (SELECT coalesce(sum(charge), 0) FROM charges WHERE NOT on_receipt)::text AS "printifyAlone"`,
    [seller.userId, NOT_PROFIT_TYPES, costReading],
  );
  return {
    revenue: Number(row.revenue),
    orderLedger: Number(row.orderLedger),
    shopLedger: Number(row.shopLedger),
    printifyOnReceipts: Number(row.printifyOnReceipts),
    printifyAlone: Number(row.printifyAlone),
  };
}

describe('the Dashboard’s profit after shop costs', () => {
  it.each(['demo', 'us'] as const)(
    'equals the sum of the receipts, the ledger and the Printify charges for the %s seller (one currency)',
    async (label) => {
      const seller = sellers[label];
      const [currencies] = await stack.sql<{ all: string[] }>(
        `SELECT array(SELECT currency FROM etsy_receipt WHERE user_id = $1
                UNION SELECT currency FROM etsy_ledger_entry WHERE user_id = $1
                UNION SELECT currency FROM printify_order WHERE user_id = $1) AS all`,
        [seller.userId],
      );
      // The demo draws its shop currency (USD, EUR or GBP); a EUR or GBP shop pays Printify in USD, so
      // conversion rounding would enter: the identity is checked when the draw is USD (and always on us).
      if (label === 'demo' && currencies.all.length !== 1) return;
      expect(currencies.all).toHaveLength(1);
      const currency = currencies.all[0];
      const dashboard = await get<DashboardMetricsResponse>(
        seller,
        `/api/dashboard/metrics?days=365&currency=${currency}`,
      );
      expect(dashboard).toMatchObject({ ordersWithoutRate: 0, ordersNotComputed: 0 });
      expect(dashboard.otherEtsyCosts.withoutRate).toBe(0);
      // Orders whose sale has not settled yet (the last days: Etsy's payment and its processing fee
      // are not in the ledger) carry an estimate of the missing fees, each marked as one on Order
      // Details: the only figure not straight from a stored row. The identity adds exactly those.
      // A receipt waiting for its Printify order may hold an estimated Printify cost too (ADR 0031).
      const estimated = await stack.sql<{ id: string; settled: boolean; fees: boolean }>(
        `SELECT DISTINCT o.id, p.has_estimated_fees AS fees, EXISTS (SELECT 1 FROM etsy_ledger_entry e WHERE e.user_id = o.user_id
                  AND e.receipt_id = o.etsy_receipt_id AND lower(e.ledger_type) = 'payment_gross') AS settled
           FROM order_profit p JOIN order_record o ON o.id = p.order_record_id
          WHERE p.user_id = $1 AND (p.has_estimated_fees OR p.printify_cost = 'estimated') AND p.printify_cost <> 'awaiting'`,
        [seller.userId],
      );
      let estimates = 0;
      for (const order of estimated) {
        const details = await get<OrderDetailsResponse>(seller, `/api/orders/${order.id}?currency=${currency}`);
        for (const line of details.profit?.costLines ?? []) if (line.estimated) estimates += line.amount?.minor ?? 0;
      }
      expect(estimated.filter((order) => order.settled && order.fees)).toEqual([]);
      const sums = await independentSums(seller, 'per_unit');
      const orderCosts = sums.printifyOnReceipts - sums.orderLedger + estimates;
      expect({
        revenue: dashboard.totalRevenue.minor,
        orderCosts: dashboard.totalCosts.minor,
        otherEtsyCosts: dashboard.otherEtsyCosts.total.minor,
        otherPrintifyCosts: dashboard.otherPrintifyCosts.total.minor,
        profitAfterShopCosts: dashboard.profitAfterShopCosts.minor,
      }).toEqual({
        revenue: sums.revenue,
        orderCosts,
        otherEtsyCosts: -sums.shopLedger,
        otherPrintifyCosts: sums.printifyAlone,
        profitAfterShopCosts: sums.revenue - orderCosts + sums.shopLedger - sums.printifyAlone,
      });
    },
  );
});

describe('a VAT-registered seller (the uk-vat-registered profile) who says so in Profit settings', () => {
  it('reclaims the VAT on Etsy’s fees: it leaves the other Etsy costs, the fees themselves stay', async () => {
    const seller = sellers.ukVat;
    const answer = await fetch(`${stack.baseUrl}/api/profit-settings`, {
      method: 'PATCH',
      headers: {
        origin: stack.baseUrl,
        'sec-fetch-site': 'same-origin',
        'content-type': 'application/json',
        cookie: seller.cookie,
      },
      body: JSON.stringify({ vatRegistered: true }),
    });
    expect(answer.status).toBe(200);
    await stack.settled([seller], 120_000);

    const [ledger] = await stack.sql<{ currency: string; shop: string; vat: string }>(
      `SELECT min(currency) AS currency,
              coalesce(sum(amount_minor), 0)::text AS shop,
              coalesce(sum(amount_minor) FILTER (WHERE lower(ledger_type) ~ $3), 0)::text AS vat
         FROM etsy_ledger_entry
        WHERE user_id = $1 AND receipt_id IS NULL AND lower(ledger_type) <> ALL($2::text[])`,
      [
        seller.userId,
        NOT_PROFIT_TYPES,
        '^(vat_seller_services|vat_on_processing_fees|vat_tax_ep|vat_refund_ep)(_refund)?$',
      ],
    );
    // The sandbox charges VAT on this seller's shop costs (Etsy Ads, Etsy Plus, labels): the case is there.
    expect(Number(ledger.vat)).toBeLessThan(0);
    const dashboard = await get<DashboardMetricsResponse>(
      seller,
      `/api/dashboard/metrics?days=365&currency=${ledger.currency}`,
    );
    expect(dashboard.otherEtsyCosts.total.minor).toBe(-(Number(ledger.shop) - Number(ledger.vat)));
  });
});
