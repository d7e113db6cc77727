import {
  EtsyLedgerEntryEntity,
  EtsyPaymentEntity,
  EtsyReceiptEntity,
  EtsyReceiptLineEntity,
  PrintifyOrderEntity,
  PrintifyOrderLineEntity,
} from '../entities';
import { syncedUpsert, type SyncedTableSpec } from './synced-upsert';

/**
 * The upserts of the six synced tables. Their columns come from the entities; what is written
 * here is each table's rule: its key, what the statement fills itself, and when a stored row
 * gives way to a new one (the source version, else a changed payload from a later fetch).
 */
const OWNER = { user_id: '$1', shop_id: '$2' } as const;
const FETCHED = { ...OWNER, fetched_at: '$4' } as const;
const TIMESTAMPS = ['created_at', 'updated_at'] as const;

export const SYNCED_TABLE_SPECS = {
  etsyReceipt: {
    table: 'etsy_receipt',
    entity: EtsyReceiptEntity,
    alias: 'r',
    fromParameters: FETCHED,
    leftToDefault: TIMESTAMPS,
    conflictKey: ['user_id', 'shop_id', 'receipt_id'],
    onConflict: {
      alsoSet: { updated_at: 'now()' },
      when: `EXCLUDED.source_updated_at > etsy_receipt.source_updated_at
          OR (EXCLUDED.source_updated_at = etsy_receipt.source_updated_at AND EXCLUDED.payload_hash <> etsy_receipt.payload_hash
              AND EXCLUDED.fetched_at >= etsy_receipt.fetched_at)`,
      returnKey: 'receipt_id',
    },
  },
  // A transaction re-listed under another receipt (never seen, but ids are Etsy's) moves with it.
  etsyReceiptLine: {
    table: 'etsy_receipt_line',
    entity: EtsyReceiptLineEntity,
    alias: 'l',
    fromParameters: OWNER,
    leftToDefault: [],
    conflictKey: ['user_id', 'shop_id', 'transaction_id'],
    onConflict: { alsoSet: {}, when: null, returnKey: null },
  },
  etsyPayment: {
    table: 'etsy_payment',
    entity: EtsyPaymentEntity,
    alias: 'p',
    fromParameters: FETCHED,
    leftToDefault: TIMESTAMPS,
    conflictKey: ['user_id', 'shop_id', 'payment_id'],
    onConflict: {
      alsoSet: { updated_at: 'now()' },
      when: `EXCLUDED.payload_hash <> etsy_payment.payload_hash
         AND (EXCLUDED.source_updated_at IS NULL OR etsy_payment.source_updated_at IS NULL OR EXCLUDED.source_updated_at > etsy_payment.source_updated_at
              OR (EXCLUDED.source_updated_at = etsy_payment.source_updated_at AND EXCLUDED.fetched_at >= etsy_payment.fetched_at))`,
      returnKey: 'payment_id',
    },
  },
  // An entry changed at Etsy (its payload differs) is linked to its receipt again.
  etsyLedgerEntry: {
    table: 'etsy_ledger_entry',
    entity: EtsyLedgerEntryEntity,
    alias: 'e',
    fromParameters: OWNER,
    leftToDefault: ['receipt_id', 'created_at'],
    conflictKey: ['user_id', 'shop_id', 'entry_id'],
    onConflict: {
      alsoSet: { receipt_id: 'NULL' },
      when: 'EXCLUDED.payload_hash <> etsy_ledger_entry.payload_hash',
      returnKey: 'entry_id',
    },
  },
  printifyOrder: {
    table: 'printify_order',
    entity: PrintifyOrderEntity,
    alias: 'o',
    fromParameters: FETCHED,
    leftToDefault: TIMESTAMPS,
    conflictKey: ['user_id', 'shop_id', 'order_id'],
    onConflict: {
      alsoSet: { updated_at: 'now()' },
      when: 'EXCLUDED.payload_hash <> printify_order.payload_hash AND EXCLUDED.fetched_at >= printify_order.fetched_at',
      returnKey: 'order_id',
    },
  },
  // The lines of the orders just written, whose old lines were deleted first: inserted only.
  printifyOrderLine: {
    table: 'printify_order_line',
    entity: PrintifyOrderLineEntity,
    alias: 'l',
    fromParameters: OWNER,
    leftToDefault: [],
    conflictKey: ['user_id', 'shop_id', 'order_id', 'line_no'],
    onConflict: null,
  },
} as const satisfies Record<string, SyncedTableSpec>;

export const SYNCED_UPSERTS = {
  etsyReceipt: syncedUpsert(SYNCED_TABLE_SPECS.etsyReceipt),
  etsyReceiptLine: syncedUpsert(SYNCED_TABLE_SPECS.etsyReceiptLine),
  etsyPayment: syncedUpsert(SYNCED_TABLE_SPECS.etsyPayment),
  etsyLedgerEntry: syncedUpsert(SYNCED_TABLE_SPECS.etsyLedgerEntry),
  printifyOrder: syncedUpsert(SYNCED_TABLE_SPECS.printifyOrder),
  printifyOrderLine: syncedUpsert(SYNCED_TABLE_SPECS.printifyOrderLine),
};
