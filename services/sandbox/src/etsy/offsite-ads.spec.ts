import type { FastifyInstance } from 'fastify';
import {
  ADMIN,
  connectEtsy,
  createTenant,
  etsyGet,
  newSandbox,
  type Clock,
  type TenantInfo,
  type Tokens,
} from '../../test/support/kit';

interface Money {
  amount: number;
  divisor: number;
}
interface Receipt {
  receipt_id: number;
  subtotal: Money;
  total_shipping_cost: Money;
}
interface Entry {
  amount: number;
  ledger_type: string;
  reference_id: number | string | null;
}

const WINDOW = 2_678_400;
const USD_100 = 10_000;

/**
 * integrations.md a.8, "Offsite Ads": "15% of order total for sellers under USD 10k sales in the
 * last 365 days …; 12% for sellers at or above USD 10k (mandatory). Capped at USD 100 (or
 * equivalent) per order." Read through what the product reads: receipts and the ledger (a.7,
 * `offsite_ads_fee` referencing the receipt, `offsite_ads_fee_refund`). "Order total" is taken as
 * the receipt's items after coupons plus shipping (`subtotal` + `total_shipping_cost`), tax apart:
 * the sandbox's reading where a.8 does not say.
 */
describe('Etsy Offsite Ads as the fee schedule documents them (a.8)', () => {
  let app: FastifyInstance;
  let clock: Clock;

  beforeAll(async () => {
    ({ app, clock } = await newSandbox({ etsyQps: 100_000, etsyQpd: 100_000_000 }));
  });
  afterAll(() => app.close());

  /** Offsite Ads fees and their credits by receipt, and the receipts, of a shop's whole history. */
  const offsiteOf = async (body: Record<string, unknown>) => {
    const tenant = await createTenant(app, { seed: 'offsite-spec', months: 3, ordersPerMonth: 400, ...body });
    const tokens = await connectEtsy(app, tenant.tenantId);
    const receipts = new Map<number, Receipt>();
    /** Receipt ids differ between tenants; the n-th receipt is the same order for the same seed. */
    const position = new Map<number, number>();
    for (let offset = 0; offset < tenant.orders; offset += 100) {
      const page = (
        await etsyGet(
          app,
          `/v3/application/shops/${tenant.etsy.shopId}/receipts?limit=100&offset=${offset}`,
          tokens.access_token,
        )
      ).json<{ results: Receipt[] }>();
      for (const r of page.results) {
        position.set(r.receipt_id, receipts.size);
        receipts.set(r.receipt_id, r);
      }
    }
    const fees = new Map<number, number>();
    const credits = new Map<number, number>();
    for (const e of await entries(tenant, tokens, Math.floor(clock.ms / 1000) - 100 * 86_400)) {
      if (e.ledger_type === 'offsite_ads_fee') fees.set(Number(e.reference_id), -e.amount);
      if (e.ledger_type === 'offsite_ads_fee_refund')
        credits.set(Number(e.reference_id), (credits.get(Number(e.reference_id)) ?? 0) + e.amount);
    }
    const feeAt = new Map([...fees].map(([id, fee]) => [position.get(id) as number, fee]));
    return { tenant, receipts, fees, credits, feeAt };
  };
  const entries = async (t: TenantInfo, tokens: Tokens, from: number): Promise<Entry[]> => {
    const out: Entry[] = [];
    for (let end = Math.floor(clock.ms / 1000); end >= from; end -= WINDOW + 1) {
      for (let offset = 0; ; offset += 100) {
        const url = `/v3/application/shops/${t.etsy.shopId}/payment-account/ledger-entries?min_created=${end - WINDOW}&max_created=${end}&limit=100&offset=${offset}`;
        const page = (await etsyGet(app, url, tokens.access_token)).json<{ count: number; results: Entry[] }>();
        out.push(...page.results);
        if (offset + 100 >= page.count) break;
      }
    }
    return out;
  };
  const orderTotal = (r: Receipt) => r.subtotal.amount + r.total_shipping_cost.amount;

  /** Every fee is the documented rate of the order total, or USD 100 where that is more. */
  const expectRate = (receipts: Map<number, Receipt>, fees: Map<number, number>, rate: number) => {
    let capped = 0;
    for (const [receiptId, fee] of fees) {
      const r = receipts.get(receiptId);
      expect(r).toBeDefined();
      const full = rate * orderTotal(r as Receipt);
      expect(fee).toBeLessThanOrEqual(USD_100);
      if (full >= USD_100) {
        expect(fee).toBe(USD_100);
        capped++;
      } else expect(Math.abs(fee - full)).toBeLessThanOrEqual(0.5);
    }
    return capped;
  };

  it('charges 15% under USD 10k of sales in the last 365 days and 12% at 10k exactly ("at or above"), capped at USD 100 per order', async () => {
    const small = await offsiteOf({ salesLast365Usd: 9_999 });
    const large = await offsiteOf({ salesLast365Usd: 10_000 });
    // Same seed, same orders: the standing alone changes the fee.
    expect([...large.feeAt.keys()].sort()).toEqual([...small.feeAt.keys()].sort());
    expect(small.fees.size).toBeGreaterThan(30);
    const cappedSmall = expectRate(small.receipts, small.fees, 0.15);
    const cappedLarge = expectRate(large.receipts, large.fees, 0.12);
    // Some offsite-ads orders are large enough to reach the cap, at either rate.
    expect(cappedSmall).toBeGreaterThan(0);
    expect(cappedLarge).toBeGreaterThan(0);
    // Below the cap the two standings differ by exactly the two rates.
    const uncapped = [...small.feeAt].filter(
      ([at, fee]) => fee < USD_100 && (large.feeAt.get(at) as number) < USD_100 && fee >= 200,
    );
    expect(uncapped.length).toBeGreaterThan(10);
    for (const [at, fee] of uncapped)
      expect(Math.abs((large.feeAt.get(at) as number) / fee - 0.12 / 0.15)).toBeLessThan(0.01);
  });

  it('credits back no more Offsite Ads fee than was charged on refunded and canceled orders (capped ones included)', async () => {
    const { fees, credits } = await offsiteOf({});
    expect(credits.size).toBeGreaterThan(0);
    for (const [receiptId, credit] of credits) {
      expect(credit).toBeGreaterThan(0);
      expect(credit).toBeLessThanOrEqual(fees.get(receiptId) ?? 0);
    }
  });

  it('draws both standings among generated shops, and shows the standing on the tenant', async () => {
    const standings: number[] = [];
    for (let n = 0; n < 16; n++) {
      const t = await createTenant(app, { seed: `standing-${n}`, months: 1, ordersPerMonth: 1 });
      const described = (await app.inject({ url: `/__sandbox/tenants/${t.tenantId}`, headers: ADMIN })).json<{
        salesLast365Usd: number;
      }>();
      standings.push(described.salesLast365Usd);
    }
    expect(standings.some((usd) => usd >= 10_000)).toBe(true);
    expect(standings.some((usd) => usd < 10_000)).toBe(true);
    const refused = await app.inject({
      method: 'POST',
      url: '/__sandbox/tenants',
      headers: ADMIN,
      payload: { salesLast365Usd: -1 },
    });
    expect(refused.statusCode).toBe(400);
  });
});
