import type { Tenant } from '../data/tenant';
import { accountKey, ledgerEntries, type RawEntry } from './ledger-entries';
import { paymentAdjustmentJson } from './payment-json';

/**
 * The shop's payment-account ledger in time order, as compact columns, built once per tenant
 * (and again after a mutation), with a weekly DISBURSE2 payout of the balance. Amounts are signed
 * minor units. Each entry has a stable number (`seq`): entry_id is ledgerEntryBase + seq and
 * sequence_number seq + 1. Numbers are handed out in time order when the ledger is first built
 * and to new entries after that, so an entry keeps its id however the ledger changes around it
 * (a back-dated refund never renumbers later entries), and a newer posting has a higher number.
 */
export interface Ledger {
  created: number[];
  amount: number[];
  balance: number[];
  type: string[];
  refType: string[];
  refId: Array<number | null>;
  /** Stable number of the entry at each position. */
  seq: number[];
  /** Stable number of the entry this one taxes, or -1. */
  parentSeq: number[];
  /** The order index of the entry, for payment_adjustments (-1 for account entries). */
  orderIndex: number[];
  /** Position of each stable number (-1 for numbers of entries no longer in the ledger). */
  positionOf: Int32Array;
}

const DAY = 86_400;

/** Per tenant: the stable number given to each entry key, and the next free one. */
const numbering = new WeakMap<Tenant, { byKey: Map<number, number>; next: number }>();

export function buildLedger(tenant: Tenant): Ledger {
  return sequence(ledgerEntries(tenant), tenant);
}

function sequence(raw: RawEntry[], tenant: Tenant): Ledger {
  const SLOT = 4_194_304; // 2^22: time × SLOT + local index stays an exact double
  if (raw.length >= SLOT) throw new Error(`ledger too large for one tenant (${raw.length} entries)`);
  const keys = new Float64Array(raw.length);
  for (let k = 0; k < raw.length; k++) keys[k] = raw[k].ts * SLOT + k;
  keys.sort();
  let ids = numbering.get(tenant);
  if (!ids) numbering.set(tenant, (ids = { byKey: new Map(), next: 0 }));
  const numbers = ids;
  const numberOf = (key: number): number => {
    let seq = numbers.byKey.get(key);
    if (seq === undefined) {
      seq = numbers.next++;
      numbers.byKey.set(key, seq);
    }
    return seq;
  };
  const ledger: Ledger = {
    created: [],
    amount: [],
    balance: [],
    type: [],
    refType: [],
    refId: [],
    seq: [],
    parentSeq: [],
    orderIndex: [],
    positionOf: new Int32Array(0),
  };
  const seqOfLocal = new Float64Array(raw.length).fill(-1);
  let balance = 0;
  let nextPayout = firstMonday(raw.length > 0 ? raw[Math.floor(keys[0] % SLOT)].ts : 0);
  const push = (
    seq: number,
    ts: number,
    type: string,
    refType: string,
    refId: number | null,
    amount: number,
    parentSeq: number,
    order: number,
  ) => {
    balance += amount;
    ledger.seq.push(seq);
    ledger.created.push(ts);
    ledger.amount.push(amount);
    ledger.balance.push(balance);
    ledger.type.push(type);
    ledger.refType.push(refType);
    ledger.refId.push(refId);
    ledger.parentSeq.push(parentSeq);
    ledger.orderIndex.push(order);
  };
  for (let n = 0; n < keys.length; n++) {
    const local = keys[n] % SLOT;
    const entry = raw[local];
    while (entry.ts >= nextPayout) {
      if (balance > 0) {
        const week = Math.floor(nextPayout / (7 * DAY));
        push(
          numberOf(accountKey('payout', week)),
          nextPayout,
          'DISBURSE2',
          'disbursement',
          tenant.shop.ledgerId * 100_000 + (week % 100_000),
          -balance,
          -1,
          -1,
        );
      }
      nextPayout += 7 * DAY;
    }
    const seq = numberOf(entry.key);
    seqOfLocal[local] = seq;
    push(
      seq,
      entry.ts,
      entry.type,
      entry.refType,
      entry.refId,
      entry.amount,
      entry.parent >= 0 ? seqOfLocal[entry.parent] : -1,
      entry.order,
    );
  }
  ledger.positionOf = new Int32Array(numbers.next).fill(-1);
  ledger.seq.forEach((seq, position) => (ledger.positionOf[seq] = position));
  return ledger;
}

/** The first Monday 09:00 UTC after `ts`. */
function firstMonday(ts: number): number {
  const day = Math.floor(ts / DAY);
  const weekday = (day + 4) % 7; // 1970-01-01 was a Thursday (4)
  const daysToMonday = (8 - weekday) % 7 || 7;
  return (day + daysToMonday) * DAY + 9 * 3600;
}

/**
 * `reference_id` is "string, null" in the spec and a number in real data (a.7, issue #295): most
 * entries send a number, one in ten (picked by its id) the same id as a string, and entries that
 * reference no object send null.
 */
function referenceIdJson(entryId: number, refId: number | null): number | string | null {
  if (refId === null) return null;
  return Math.imul(entryId, 0x9e3779b1) >>> 0 < 0x1999999a ? String(refId) : refId;
}

export function ledgerEntryJson(tenant: Tenant, ledger: Ledger, position: number): Record<string, unknown> {
  const shop = tenant.shop;
  const parent = ledger.parentSeq[position];
  const type = ledger.type[position];
  const order = ledger.orderIndex[position];
  const entryId = shop.ledgerEntryBase + ledger.seq[position];
  const adjustment = type === 'REFUND_GROSS' && order >= 0 ? paymentAdjustmentJson(shop, tenant.order(order)) : null;
  return {
    entry_id: entryId,
    ledger_id: shop.ledgerId,
    sequence_number: ledger.seq[position] + 1,
    amount: ledger.amount[position],
    // The payment account's currency (a.7), which may differ from the listing currency.
    currency: shop.paymentCurrency,
    description: type,
    balance: ledger.balance[position],
    create_date: ledger.created[position],
    created_timestamp: ledger.created[position],
    ledger_type: type,
    reference_type: ledger.refType[position],
    reference_id: referenceIdJson(entryId, ledger.refId[position]),
    parent_entry_id: parent >= 0 ? shop.ledgerEntryBase + parent : 0,
    payment_adjustments: adjustment ? [adjustment] : [],
  };
}

/** The position of an entry id in the ledger, or -1. */
export function positionOfEntry(tenant: Tenant, ledger: Ledger, entryId: number): number {
  const seq = entryId - tenant.shop.ledgerEntryBase;
  return Number.isSafeInteger(seq) && seq >= 0 && seq < ledger.positionOf.length ? ledger.positionOf[seq] : -1;
}

export function tenantLedger(tenant: Tenant): Ledger {
  return tenant.derive('ledger', () => buildLedger(tenant));
}
