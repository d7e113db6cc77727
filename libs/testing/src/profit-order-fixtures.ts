import type { DataSource } from 'typeorm';
import type { CurrencyCode } from '@pod/domain';
import { EtsyOrdersRepository, FxRatesRepository, PrintifyOrdersRepository } from '@pod/db';

/**
 * An order with everything the profit engine reads (receipt, payment, ledger entries linked to
 * the receipt, a Printify order naming it), stored through the sync's own repositories.
 */
export interface ProfitOrderFixture {
  etsyShopId: string;
  receiptId: string;
  currency: CurrencyCode;
  buyerName: string;
  orderedAt: Date;
  title: string;
  sku: string;
  totalPriceMinor: number;
  subtotalMinor?: number;
  shippingMinor?: number;
  taxMinor?: number;
  vatMinor?: number | null;
  refundedMinor?: number;
  status?: string;
  /** Updates bump this so the upsert takes the new version. */
  version?: number;
  /** amount_fees of one payment in the receipt currency; absent: no payment. */
  paymentFeesMinor?: number;
  ledger?: { id: string; type: string; amountMinor: number; currency?: CurrencyCode }[];
  printify?: {
    shopId: string;
    orderId: string;
    currency: CurrencyCode;
    lines: { quantity: number; costMinor: number; shippingMinor: number }[];
    taxMinor?: number;
  };
}

export async function storeProfitOrder(
  dataSource: DataSource,
  userId: string,
  order: ProfitOrderFixture,
): Promise<void> {
  const etsy = new EtsyOrdersRepository(dataSource);
  const version = order.version ?? 0;
  const subtotal = order.subtotalMinor ?? order.totalPriceMinor;
  const tax = order.taxMinor ?? 0;
  const vat = order.vatMinor ?? null;
  const updatedAt = new Date(order.orderedAt.getTime() + version * 60_000);
  await etsy.upsertReceipts(
    userId,
    order.etsyShopId,
    [
      {
        receiptId: order.receiptId,
        status: order.status ?? 'paid',
        isPaid: true,
        isShipped: false,
        buyerName: order.buyerName,
        buyerUserId: null,
        zip: null,
        countryIso: null,
        currency: order.currency,
        grandtotalMinor: order.totalPriceMinor + (order.shippingMinor ?? 0) + tax + (vat ?? 0),
        subtotalMinor: subtotal,
        totalPriceMinor: order.totalPriceMinor,
        totalShippingMinor: order.shippingMinor ?? 0,
        totalTaxMinor: tax,
        totalVatMinor: vat,
        discountMinor: order.totalPriceMinor - subtotal,
        giftWrapMinor: null,
        refundedMinor: order.refundedMinor ?? 0,
        orderedAt: order.orderedAt,
        sourceUpdatedAt: updatedAt,
        lines: [
          {
            transactionId: `${order.receiptId}-1`,
            listingId: null,
            productId: null,
            title: order.title,
            sku: order.sku,
            quantity: 1,
            currency: order.currency,
            unitPriceMinor: order.totalPriceMinor,
            shippingMinor: null,
            isDigital: false,
          },
        ],
        payload: { receipt_id: order.receiptId, version, refunded: order.refundedMinor ?? 0 },
      },
    ],
    new Date(),
  );
  if (order.paymentFeesMinor !== undefined) {
    await etsy.upsertPayments(
      userId,
      order.etsyShopId,
      [
        {
          paymentId: `p-${order.receiptId}`,
          receiptId: order.receiptId,
          currency: order.currency,
          amountGrossMinor: order.totalPriceMinor,
          amountFeesMinor: order.paymentFeesMinor,
          amountNetMinor: order.totalPriceMinor - order.paymentFeesMinor,
          postedGrossMinor: null,
          postedFeesMinor: null,
          postedNetMinor: null,
          adjustedGrossMinor: null,
          adjustedFeesMinor: null,
          adjustedNetMinor: null,
          status: null,
          sourceUpdatedAt: null,
          payload: { payment_id: `p-${order.receiptId}` },
        },
      ],
      new Date(),
    );
  }
  if (order.ledger?.length) {
    await etsy.upsertLedgerEntries(
      userId,
      order.etsyShopId,
      order.ledger.map((entry) => ({
        entryId: entry.id,
        ledgerType: entry.type,
        referenceType: 'receipt',
        referenceId: order.receiptId,
        parentEntryId: null,
        currency: entry.currency ?? order.currency,
        amountMinor: entry.amountMinor,
        entryCreatedAt: order.orderedAt,
        payload: { entry_id: entry.id, amount: entry.amountMinor },
      })),
    );
    await etsy.linkPendingLedgerEntries(userId, order.etsyShopId);
  }
  if (order.printify) {
    const p = order.printify;
    await new PrintifyOrdersRepository(dataSource).upsertOrders(
      userId,
      p.shopId,
      [
        {
          orderId: p.orderId,
          appOrderId: null,
          status: 'fulfilled',
          orderType: 'external',
          shopOrderId: order.receiptId,
          shopOrderLabel: order.receiptId,
          buyerName: order.buyerName,
          zip: null,
          country: null,
          currency: p.currency,
          totalPriceMinor: p.lines.reduce((sum, line) => sum + line.costMinor * line.quantity, 0),
          totalShippingMinor: p.lines.reduce((sum, line) => sum + line.shippingMinor, 0),
          totalTaxMinor: p.taxMinor ?? 0,
          isReprint: false,
          orderedAt: new Date(order.orderedAt.getTime() + 3_600_000),
          sentToProductionAt: null,
          fulfilledAt: null,
          lines: p.lines.map((line) => ({
            productId: null,
            variantId: null,
            sku: order.sku,
            title: order.title,
            variantLabel: null,
            quantity: line.quantity,
            currency: p.currency,
            costMinor: line.costMinor,
            shippingMinor: line.shippingMinor,
            retailPriceMinor: null,
            status: 'fulfilled',
          })),
          payload: { id: p.orderId, lines: p.lines },
        },
      ],
      new Date(),
    );
  }
}

/**
 * The golden scenarios of libs/domain/src/profit/golden-scenarios.spec.ts as stored orders
 * (dated 2026-03-14): a USD shop's order and a EUR shop's order, each with its Printify order.
 */
export function goldenUsdOrder(prefix: string, overrides: Partial<ProfitOrderFixture> = {}): ProfitOrderFixture {
  return {
    etsyShopId: `${prefix}-usd-shop`,
    receiptId: `${prefix}9001`,
    currency: 'USD',
    buyerName: 'Ada Lovelace',
    orderedAt: new Date('2026-03-14T10:00:00Z'),
    title: 'Cat Mug 11oz',
    sku: 'MUG-CAT-11',
    totalPriceMinor: 3000,
    shippingMinor: 500,
    taxMinor: 213,
    paymentFeesMinor: 136,
    ledger: [
      { id: `${prefix}-l1`, type: 'PAYMENT_GROSS', amountMinor: 3713 },
      { id: `${prefix}-l2`, type: 'sales_tax', amountMinor: -213 },
      { id: `${prefix}-l3`, type: 'transaction', amountMinor: -195 },
      { id: `${prefix}-l4`, type: 'shipping_transaction', amountMinor: -33 },
      { id: `${prefix}-l5`, type: 'PAYMENT_PROCESSING_FEE', amountMinor: -136 },
    ],
    printify: {
      shopId: `${prefix}-pfy`,
      orderId: `${prefix}-pfy-9001`,
      currency: 'USD',
      lines: [{ quantity: 1, costMinor: 1250, shippingMinor: 475 }],
    },
    ...overrides,
  };
}

export function goldenEurOrder(prefix: string, overrides: Partial<ProfitOrderFixture> = {}): ProfitOrderFixture {
  return {
    etsyShopId: `${prefix}-eur-shop`,
    receiptId: `${prefix}9002`,
    currency: 'EUR',
    buyerName: 'Grace Hopper',
    orderedAt: new Date('2026-03-14T11:00:00Z'),
    title: 'Dog Poster A3',
    sku: 'POSTER-DOG',
    totalPriceMinor: 4000,
    shippingMinor: 600,
    vatMinor: 920,
    paymentFeesMinor: 251,
    ledger: [
      { id: `${prefix}-e1`, type: 'transaction', amountMinor: -260 },
      { id: `${prefix}-e2`, type: 'shipping_transaction', amountMinor: -39 },
      { id: `${prefix}-e3`, type: 'vat_seller_services', amountMinor: -60 },
      { id: `${prefix}-e4`, type: 'regulatory_operating_fee', amountMinor: -22 },
    ],
    printify: {
      shopId: `${prefix}-pfy`,
      orderId: `${prefix}-pfy-9002`,
      currency: 'USD',
      lines: [{ quantity: 1, costMinor: 1500, shippingMinor: 500 }],
    },
    ...overrides,
  };
}

/**
 * ECB-style rates for the golden day: GBP 0.85 and USD 1.0625 per EUR, so EUR→GBP is 0.85 (as in
 * the golden scenarios) and USD→GBP exactly 0.8. Stored for 2026-03-13 (a Friday) and 2026-03-16.
 */
export async function storeGoldenRates(
  dataSource: DataSource,
  dates: readonly string[] = ['2026-03-13', '2026-03-16'],
): Promise<void> {
  const rows = dates.flatMap((date) => [
    { date, currency: 'GBP', perEur: '0.85' },
    { date, currency: 'USD', perEur: '1.0625' },
  ]);
  await new FxRatesRepository(dataSource).upsertRates(rows, 'test', new Date());
}
