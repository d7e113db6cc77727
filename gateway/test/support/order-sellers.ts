import type { DataSource } from 'typeorm';
import {
  goldenEurOrder,
  goldenUsdOrder,
  queryDatabase,
  storeProfitOrder,
  storeSyncedOrders,
  type SideFixture,
} from '@pod/testing';
import { DAY_MS } from '@pod/domain';
import { UserMatcher, UserProfits } from '@pod/orders';
import { register, sessionCookie, uniqueEmail, type TestGateway } from './test-gateway';

export { DAY_MS };

/** The golden orders' day: 30 days before `now` (so every window but 7 days holds them); store the golden rates for it. */
export const goldenDay = (now: Date) => new Date(now.getTime() - 30 * DAY_MS).toISOString().slice(0, 10);

export async function signedInSeller(
  gw: TestGateway,
  databaseUrl: string,
  label: string,
): Promise<{ cookie: string; userId: string }> {
  const email = uniqueEmail(label);
  const cookie = sessionCookie(await register(gw.app, email));
  const [{ id }] = await queryDatabase<{ id: string }>(databaseUrl, 'SELECT id FROM app_user WHERE email = $1', [
    email,
  ]);
  return { cookie, userId: id };
}

/**
 * The seller's shop: the two golden orders (dated goldenDay, each paired with the Printify order
 * naming it), three recent lone receipts (2, 20 and 60 days old; a lone one younger than 7 days
 * is pending), two lone Printify orders (3 days old, and undated-looking old), and `extraInMonth`
 * lone Printify orders in the current month for the matching page's paging.
 */
export async function seedOrderSeller(
  dataSource: DataSource,
  seller: { userId: string },
  prefix: string,
  now: Date,
  extraInMonth = 0,
): Promise<void> {
  const day = goldenDay(now);
  await storeProfitOrder(
    dataSource,
    seller.userId,
    goldenUsdOrder(prefix, { orderedAt: new Date(`${day}T10:00:00Z`) }),
  );
  await storeProfitOrder(
    dataSource,
    seller.userId,
    goldenEurOrder(prefix, { orderedAt: new Date(`${day}T11:00:00Z`) }),
  );
  const ago = (days: number) => new Date(now.getTime() - days * DAY_MS);
  const receipts: SideFixture[] = [
    {
      shopId: `${prefix}-usd-shop`,
      id: `${prefix}7002`,
      buyerName: 'Alan Turing',
      orderedAt: ago(2),
      lines: [{ title: 'Robot Tee', sku: 'TEE-ROBOT', quantity: 1 }],
    },
    {
      shopId: `${prefix}-usd-shop`,
      id: `${prefix}7020`,
      buyerName: 'Edsger Dijkstra',
      orderedAt: ago(20),
      lines: [{ title: '100% Cotton Tote', sku: 'TOTE', quantity: 1 }],
    },
    {
      shopId: `${prefix}-usd-shop`,
      id: `${prefix}7060`,
      buyerName: 'Barbara Liskov',
      orderedAt: ago(60),
      lines: [{ title: 'Hoodie', sku: 'HOOD', quantity: 2 }],
    },
  ];
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1, 6));
  const orders: SideFixture[] = [
    {
      shopId: `${prefix}-pfy`,
      id: `${prefix}-lone-1`,
      buyerName: 'Donald Knuth',
      orderedAt: ago(3),
      lines: [{ title: 'Sticker Pack', sku: 'STICK', quantity: 3 }],
    },
    {
      shopId: `${prefix}-pfy`,
      id: `${prefix}-lone-2`,
      buyerName: 'Frances Allen',
      orderedAt: ago(400),
      lines: [{ title: 'Old Poster', sku: 'OLD', quantity: 1 }],
    },
    ...Array.from({ length: extraInMonth }, (_, i) => ({
      shopId: `${prefix}-pfy`,
      id: `${prefix}-month-${String(i).padStart(2, '0')}`,
      buyerName: `Month Buyer ${i}`,
      orderedAt: new Date(Math.min(monthStart.getTime() + i * 3_600_000, now.getTime() - 60_000)),
      lines: [{ title: `Month Item ${i}`, sku: `M-${i}`, quantity: 1 }],
    })),
  ];
  await storeSyncedOrders(dataSource, seller.userId, receipts, orders);
}

/** What the matcher worker does after a sync: match, then compute the profits. */
export async function matchAndFigure(dataSource: DataSource, userId: string, now: Date): Promise<void> {
  await new UserMatcher(dataSource).matchUser(userId, now);
  await new UserProfits(dataSource, () => now).computeUser(userId);
}

/** The record id of a receipt or a Printify order of the user. */
export async function recordIdOf(
  databaseUrl: string,
  userId: string,
  side: { receipt?: string; order?: string },
): Promise<string> {
  const rows = await queryDatabase<{ id: string }>(
    databaseUrl,
    `SELECT id FROM order_record WHERE user_id = $1 AND (etsy_receipt_id = $2 OR printify_order_id = $3)`,
    [userId, side.receipt ?? null, side.order ?? null],
  );
  if (rows.length !== 1) throw new Error(`expected one record for ${JSON.stringify(side)}, found ${rows.length}`);
  return rows[0].id;
}
