import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@pod/testing';
import { createDataSource } from '../data-source';
import { prepareDatabase } from '../prepare-database';
import { EtsyOrdersRepository, type EtsyLedgerEntryRow, type EtsyReceiptRow } from './etsy-orders.repository';
import { inTenantScope } from './tenant-scope';
import { UsersRepository } from './users.repository';

/**
 * Sold renewals (`renew_sold`, `renew_sold_auto`) reference the listing, not the sale: the link
 * pass attributes each to the latest sale of that listing at or before it, one per unit sold,
 * with its VAT entry, and keeps one whose sale has not arrived waiting (ADR 0026).
 */
let database: TestDatabase;
let dataSource: DataSource;
const SHOP = '5150';

beforeAll(async () => {
  database = await createTestDatabase('renewals');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: 2 }, 'renewals').initialize();
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

async function aUser(): Promise<string> {
  const address = `renew-${Math.random().toString(36).slice(2)}@example.com`;
  const user = await new UsersRepository(dataSource).create({
    email: address,
    passwordHash: 'x',
    firstName: 'R',
    lastName: 'S',
  });
  if (!user) throw new Error('no user');
  return user.id;
}

function sale(receiptId: string, at: string, lines: { listingId: string; quantity: number }[]): EtsyReceiptRow {
  return {
    receiptId,
    status: 'paid',
    isPaid: true,
    isShipped: false,
    buyerName: 'B',
    buyerUserId: null,
    zip: null,
    countryIso: null,
    currency: 'USD',
    grandtotalMinor: 1000,
    subtotalMinor: 1000,
    totalPriceMinor: 1000,
    totalShippingMinor: 0,
    totalTaxMinor: 0,
    totalVatMinor: null,
    discountMinor: 0,
    giftWrapMinor: null,
    refundedMinor: 0,
    orderedAt: new Date(at),
    sourceUpdatedAt: new Date(at),
    lines: lines.map((line, index) => ({
      transactionId: `${receiptId}-${index}`,
      listingId: line.listingId,
      productId: null,
      title: 'Mug',
      sku: null,
      quantity: line.quantity,
      currency: 'USD',
      unitPriceMinor: 1000,
      shippingMinor: null,
      isDigital: false,
    })),
    payload: { receipt_id: receiptId },
  };
}

function entry(entryId: string, type: string, at: string, reference: string | null, parent: string | null = null) {
  const row: EtsyLedgerEntryRow = {
    entryId,
    ledgerType: type,
    referenceType: parent ? 'etsy' : 'listing',
    referenceId: parent ? '0' : reference,
    parentEntryId: parent,
    currency: 'USD',
    amountMinor: parent ? -4 : -20,
    entryCreatedAt: new Date(at),
    payload: { entry_id: entryId },
  };
  return row;
}

async function links(userId: string): Promise<Record<string, string | null>> {
  const rows: { entry_id: string; receipt_id: string | null; link_pending: boolean }[] = await inTenantScope(
    dataSource,
    userId,
    (db) =>
      db.query(
        `SELECT entry_id, receipt_id, link_pending FROM etsy_ledger_entry WHERE user_id = $1 ORDER BY entry_id`,
        [userId],
      ),
  );
  return Object.fromEntries(rows.map((row) => [row.entry_id, row.link_pending ? 'pending' : row.receipt_id]));
}

describe('linkPendingLedgerEntries: sold renewals', () => {
  it('gives each sale one renewal per unit, the latest sale at or before it, with its VAT', async () => {
    const userId = await aUser();
    const etsy = new EtsyOrdersRepository(dataSource);
    // Listing L1 sells 3 units on receipt R1 (day 1) and 1 on R2 (day 3); listing L2 sells 1 on R2.
    await etsy.upsertReceipts(
      userId,
      SHOP,
      [
        sale('R1', '2026-03-01T10:00:00Z', [{ listingId: 'L1', quantity: 3 }]),
        sale('R2', '2026-03-03T10:00:00Z', [
          { listingId: 'L1', quantity: 1 },
          { listingId: 'L2', quantity: 1 },
        ]),
      ],
      new Date(),
    );
    await etsy.upsertLedgerEntries(userId, SHOP, [
      // Three after R1 (one per unit), with VAT on the first; a fourth on day 2 finds R1 full: waits.
      entry('E01', 'renew_sold', '2026-03-01T10:00:05Z', 'L1'),
      entry('E02', 'renew_sold', '2026-03-01T10:00:06Z', 'L1'),
      entry('E03', 'RENEW_SOLD_AUTO', '2026-03-01T10:00:07Z', 'L1'),
      entry('E04', 'vat_seller_services', '2026-03-01T10:00:05Z', null, 'E01'),
      entry('E05', 'renew_sold', '2026-03-02T09:00:00Z', 'L1'),
      // One after R2 for L1 and one for L2.
      entry('E06', 'renew_sold', '2026-03-03T10:00:05Z', 'L1'),
      entry('E07', 'renew_sold', '2026-03-03T10:00:05Z', 'L2'),
      // A new listing's fee and an expired one's renewal are shop costs: never on an order.
      entry('E08', 'listing', '2026-03-03T11:00:00Z', 'L1'),
      entry('E09', 'renew_expired', '2026-03-03T11:00:00Z', 'L2'),
      // Before any sale of L3: waits for it.
      entry('E10', 'renew_sold', '2026-03-04T10:00:05Z', 'L3'),
    ]);
    await etsy.linkPendingLedgerEntries(userId, SHOP);
    expect(await links(userId)).toEqual({
      E01: 'R1',
      E02: 'R1',
      E03: 'R1',
      E04: 'R1',
      E05: 'pending',
      E06: 'R2',
      E07: 'R2',
      E08: null,
      E09: null,
      E10: 'pending',
    });

    // The sale of L3 arrives after its renewal (placed just before it): the next pass links it.
    await etsy.upsertReceipts(
      userId,
      SHOP,
      [sale('R3', '2026-03-04T10:00:00Z', [{ listingId: 'L3', quantity: 1 }])],
      new Date(),
    );
    await etsy.linkPendingLedgerEntries(userId, SHOP);
    expect((await links(userId)).E10).toBe('R3');
  });

  it('gives a renewal to the next older sale when a later-placed one already has all of its units', async () => {
    const userId = await aUser();
    const etsy = new EtsyOrdersRepository(dataSource);
    // RA is placed first but paid last: RB (placed later, paid sooner) renews before RA does.
    await etsy.upsertReceipts(
      userId,
      SHOP,
      [
        sale('RA', '2026-03-05T10:00:00Z', [{ listingId: 'L5', quantity: 1 }]),
        sale('RB', '2026-03-05T10:08:00Z', [{ listingId: 'L5', quantity: 1 }]),
      ],
      new Date(),
    );
    await etsy.upsertLedgerEntries(userId, SHOP, [
      entry('E51', 'renew_sold', '2026-03-05T10:10:00Z', 'L5'),
      entry('E52', 'renew_sold', '2026-03-05T10:20:00Z', 'L5'),
    ]);
    await etsy.linkPendingLedgerEntries(userId, SHOP);
    expect(await links(userId)).toEqual({ E51: 'RB', E52: 'RA' });
  });

  it("never links another user's sale", async () => {
    const owner = await aUser();
    const other = await aUser();
    const etsy = new EtsyOrdersRepository(dataSource);
    await etsy.upsertReceipts(
      other,
      SHOP,
      [sale('R9', '2026-03-01T10:00:00Z', [{ listingId: 'L9', quantity: 1 }])],
      new Date(),
    );
    await etsy.upsertLedgerEntries(owner, SHOP, [entry('E90', 'renew_sold', '2026-03-01T10:00:05Z', 'L9')]);
    await etsy.linkPendingLedgerEntries(owner, SHOP);
    expect(await links(owner)).toEqual({ E90: 'pending' });
  });
});

function ledgerRow(
  entryId: string,
  type: string,
  reference: { type: string; id: string },
  parent: string | null = null,
): EtsyLedgerEntryRow {
  return {
    entryId,
    ledgerType: type,
    referenceType: reference.type,
    referenceId: reference.id,
    parentEntryId: parent,
    currency: 'USD',
    amountMinor: -10,
    entryCreatedAt: new Date('2026-03-10T10:00:00Z'),
    payload: { entry_id: entryId },
  };
}

describe('linkPendingLedgerEntries: parents and siblings, read and written by key', () => {
  it("gives a fee's VAT the fee's receipt, and stops an account-level fee's VAT waiting", async () => {
    const userId = await aUser();
    const etsy = new EtsyOrdersRepository(dataSource);
    await etsy.upsertReceipts(
      userId,
      SHOP,
      [sale('R20', '2026-03-10T09:00:00Z', [{ listingId: 'L20', quantity: 1 }])],
      new Date(),
    );
    await etsy.upsertLedgerEntries(userId, SHOP, [
      ledgerRow('F1', 'transaction', { type: 'transaction', id: 'R20-0' }),
      ledgerRow('F2', 'vat_seller_services', { type: 'etsy', id: '0' }, 'F1'),
      // A new listing's fee is a shop cost: its VAT has no receipt to wait for.
      ledgerRow('F3', 'listing', { type: 'listing', id: 'L20' }),
      ledgerRow('F4', 'vat_seller_services', { type: 'etsy', id: '0' }, 'F3'),
      // The VAT of a fee not stored yet keeps waiting.
      ledgerRow('F5', 'vat_seller_services', { type: 'etsy', id: '0' }, 'F9'),
    ]);
    await etsy.linkPendingLedgerEntries(userId, SHOP);
    expect(await links(userId)).toEqual({ F1: 'R20', F2: 'R20', F3: null, F4: null, F5: 'pending' });
  });

  it('gives a waiting payment adjustment the receipt of an entry of the same adjustment already linked', async () => {
    const userId = await aUser();
    const etsy = new EtsyOrdersRepository(dataSource);
    await etsy.upsertReceipts(
      userId,
      SHOP,
      [sale('R30', '2026-03-10T09:00:00Z', [{ listingId: 'L30', quantity: 1 }])],
      new Date(),
    );
    await etsy.upsertLedgerEntries(userId, SHOP, [
      ledgerRow('A1', 'refund', { type: 'payment_adjustment', id: 'PA1' }),
      ledgerRow('A2', 'refund_processing_fee', { type: 'payment_adjustment', id: 'PA1' }),
      ledgerRow('A3', 'refund_processing_fee', { type: 'payment_adjustment', id: 'PA2' }),
    ]);
    // A1 was linked through its payment (as the payment lookup does); A2 names no payment of its own.
    await inTenantScope(dataSource, userId, (db) =>
      db.query(
        `UPDATE etsy_ledger_entry SET receipt_id = 'R30', link_pending = false WHERE user_id = $1 AND entry_id = 'A1'`,
        [userId],
      ),
    );
    await etsy.linkPendingLedgerEntries(userId, SHOP);
    expect(await links(userId)).toEqual({ A1: 'R30', A2: 'R30', A3: 'pending' });
  });
});
