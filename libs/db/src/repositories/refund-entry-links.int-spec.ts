import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@pod/testing';
import { createDataSource } from '../data-source';
import { prepareDatabase } from '../prepare-database';
import { EtsyOrdersRepository, type EtsyLedgerEntryRow, type EtsyPaymentRow } from './etsy-orders.repository';
import { inTenantScope } from './tenant-scope';
import { UsersRepository } from './users.repository';

/**
 * A refund's ledger entries reference the payment adjustment (`reference_type`
 * `payment_adjustment`, integrations.md §a.7). Real entries come without `payment_adjustments`
 * (etsy/open-api issue #302 shows a REFUND_GROSS entry of just `entry_id … reference_type,
 * reference_id`), so the adjustment is found where §a.6 puts it: in its Payment's
 * `payment_adjustments[]` (`payment_adjustment_id`), and the entry goes on that payment's receipt.
 */
let database: TestDatabase;
let dataSource: DataSource;
const SHOP = '5151';

beforeAll(async () => {
  database = await createTestDatabase('refund_links');
  await prepareDatabase({ DATABASE_URL: database.url });
  dataSource = await createDataSource(
    { DATABASE_URL: database.url, DATABASE_POOL_SIZE: 2 },
    'refund-links',
  ).initialize();
}, 60_000);

afterAll(async () => {
  await dataSource?.destroy();
  await database?.drop();
});

const at = new Date('2022-01-27T10:23:35Z');

function payment(paymentId: string, receiptId: string, adjustmentIds: (number | string)[]): EtsyPaymentRow {
  return {
    paymentId,
    receiptId,
    currency: 'EUR',
    amountGrossMinor: 104,
    amountFeesMinor: 4,
    amountNetMinor: 100,
    postedGrossMinor: 104,
    postedFeesMinor: 4,
    postedNetMinor: 100,
    adjustedGrossMinor: 0,
    adjustedFeesMinor: 0,
    adjustedNetMinor: 0,
    status: 'settled',
    sourceUpdatedAt: at,
    payload: {
      payment_id: Number(paymentId),
      receipt_id: Number(receiptId),
      payment_adjustments: adjustmentIds.map((id) => ({ payment_adjustment_id: id, payment_id: Number(paymentId) })),
    },
  };
}

// As issue #302 shows it: no payment_adjustments on the entry.
function refundEntry(entryId: string, type: string, adjustmentId: string): EtsyLedgerEntryRow {
  return {
    entryId,
    ledgerType: type,
    referenceType: 'payment_adjustment',
    referenceId: adjustmentId,
    parentEntryId: null,
    currency: 'EUR',
    amountMinor: type === 'REFUND_GROSS' ? -104 : 4,
    entryCreatedAt: at,
    payload: {
      entry_id: Number(entryId),
      ledger_type: type,
      reference_type: 'payment_adjustment',
      reference_id: Number(adjustmentId),
    },
  };
}

it('links a refund entry to the receipt whose payment lists its adjustment', async () => {
  const user = await new UsersRepository(dataSource).create({
    email: `refund-${Math.random().toString(36).slice(2)}@example.com`,
    passwordHash: 'x',
    firstName: 'R',
    lastName: 'L',
  });
  const userId = user!.id;
  const etsy = new EtsyOrdersRepository(dataSource);
  await etsy.upsertPayments(
    userId,
    SHOP,
    [payment('101096642631', '2345678901', [100307830422]), payment('101096642632', '2345678902', ['100307830499'])],
    at,
  );
  await etsy.upsertLedgerEntries(userId, SHOP, [
    refundEntry('11594841764', 'REFUND_GROSS', '100307830422'),
    refundEntry('11594841765', 'REFUND_PROCESSING_FEE', '100307830499'),
    refundEntry('11594841766', 'REFUND_GROSS', '100300000000'),
  ]);
  await etsy.linkPendingLedgerEntries(userId, SHOP);
  const rows: { entry_id: string; receipt_id: string | null; link_pending: boolean }[] = await inTenantScope(
    dataSource,
    userId,
    (db) =>
      db.query(
        `SELECT entry_id, receipt_id, link_pending FROM etsy_ledger_entry WHERE user_id = $1 ORDER BY entry_id`,
        [userId],
      ),
  );
  expect(rows).toEqual([
    { entry_id: '11594841764', receipt_id: '2345678901', link_pending: false },
    { entry_id: '11594841765', receipt_id: '2345678902', link_pending: false },
    // Its payment has not arrived (or not with this adjustment): it waits.
    { entry_id: '11594841766', receipt_id: null, link_pending: true },
  ]);
});
