import type { DataSource } from 'typeorm';
import {
  EtsyOrdersRepository,
  PrintifyOrdersRepository,
  UsersRepository,
  type EtsyReceiptRow,
  type PrintifyOrderRow,
} from '@pod/db';

/** A receipt or Printify order for a matching test: the fields matching reads, the rest filled in. */
export interface SideFixture {
  shopId: string;
  id: string;
  buyerName: string | null;
  orderedAt: Date;
  lines: { title: string | null; sku: string | null; quantity: number }[];
  /** Printify only: metadata.shop_order_id. */
  shopOrderId?: string | null;
  /** Printify only: metadata.order_type (default external: an order of the connected Etsy shop). */
  orderType?: string;
  /** Printify only: metadata.is_reprint and reprinted_order_ids (stored in the payload, as a sync does). */
  reprintOf?: string;
  /** Printify only: metadata.child_reprinted_order_ids (the reprints made of this order). */
  reprints?: string[];
  /** Printify only: the order's status (default fulfilled); a canceled order costs nothing. */
  status?: string;
  /** Etsy only: every line is_digital. */
  digital?: boolean;
}

/** A user row for tests that need only an owner. */
export async function createFixtureUser(dataSource: DataSource, label = 'fixture'): Promise<string> {
  const email = `${label}-${Math.random().toString(36).slice(2)}@example.com`;
  const user = await new UsersRepository(dataSource).create({
    email,
    passwordHash: 'x',
    firstName: 'F',
    lastName: 'X',
  });
  if (!user) throw new Error('fixture user not created');
  return user.id;
}

/** Stores receipts and Printify orders through the sync's own repositories (a sync would write the same rows). */
export async function storeSyncedOrders(
  dataSource: DataSource,
  userId: string,
  receipts: readonly SideFixture[],
  orders: readonly SideFixture[],
): Promise<void> {
  const fetchedAt = new Date();
  for (const [shopId, group] of groupByShop(receipts)) {
    await new EtsyOrdersRepository(dataSource).upsertReceipts(userId, shopId, group.map(receiptRow), fetchedAt);
  }
  for (const [shopId, group] of groupByShop(orders)) {
    await new PrintifyOrdersRepository(dataSource).upsertOrders(userId, shopId, group.map(orderRow), fetchedAt);
  }
}

function receiptRow(fixture: SideFixture): EtsyReceiptRow {
  return {
    receiptId: fixture.id,
    status: 'paid',
    isPaid: true,
    isShipped: false,
    buyerName: fixture.buyerName,
    buyerUserId: null,
    zip: null,
    countryIso: 'US',
    currency: 'USD',
    grandtotalMinor: 2500,
    subtotalMinor: 2500,
    totalPriceMinor: 2500,
    totalShippingMinor: 0,
    totalTaxMinor: 0,
    totalVatMinor: null,
    discountMinor: null,
    giftWrapMinor: null,
    refundedMinor: 0,
    orderedAt: fixture.orderedAt,
    sourceUpdatedAt: fixture.orderedAt,
    lines: fixture.lines.map((line, index) => ({
      transactionId: `${fixture.id}-${index}`,
      listingId: null,
      productId: null,
      title: line.title,
      sku: line.sku,
      quantity: line.quantity,
      currency: 'USD',
      unitPriceMinor: 2500,
      shippingMinor: null,
      isDigital: fixture.digital ?? false,
    })),
    payload: { receipt_id: fixture.id, buyer: fixture.buyerName },
  };
}

function orderRow(fixture: SideFixture): PrintifyOrderRow {
  return {
    orderId: fixture.id,
    appOrderId: null,
    status: fixture.status ?? 'fulfilled',
    orderType: fixture.orderType ?? 'external',
    shopOrderId: fixture.shopOrderId ?? null,
    shopOrderLabel: fixture.shopOrderId ?? null,
    buyerName: fixture.buyerName,
    zip: null,
    country: 'US',
    currency: 'USD',
    totalPriceMinor: 1200,
    totalShippingMinor: 400,
    totalTaxMinor: 0,
    isReprint: fixture.reprintOf !== undefined,
    orderedAt: fixture.orderedAt,
    sentToProductionAt: null,
    fulfilledAt: null,
    lines: fixture.lines.map((line) => ({
      productId: null,
      variantId: null,
      sku: line.sku,
      title: line.title,
      variantLabel: null,
      quantity: line.quantity,
      currency: 'USD',
      costMinor: fixture.status === 'canceled' ? 0 : 1200,
      shippingMinor: fixture.status === 'canceled' ? 0 : 400,
      retailPriceMinor: null,
      status: fixture.status ?? 'fulfilled',
    })),
    payload: {
      id: fixture.id,
      buyer: fixture.buyerName,
      metadata: {
        is_reprint: fixture.reprintOf !== undefined,
        reprinted_order_ids: fixture.reprintOf ? [fixture.reprintOf] : [],
        child_reprinted_order_ids: fixture.reprints ?? [],
      },
    },
  };
}

function groupByShop(fixtures: readonly SideFixture[]): Map<string, SideFixture[]> {
  const groups = new Map<string, SideFixture[]>();
  for (const fixture of fixtures) groups.set(fixture.shopId, [...(groups.get(fixture.shopId) ?? []), fixture]);
  return groups;
}
