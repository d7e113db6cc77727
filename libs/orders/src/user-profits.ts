import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import {
  computeOrderProfit,
  DISPLAY_CURRENCY_CODES,
  estimatePrintifyCost,
  orderDateUtc,
  RateTable,
  rateTableConverter,
  storedOrderFigures,
  EXCHANGE_LOOKBACK_DAYS,
  type CurrencyCode,
  type DisplayCurrencyCode,
  type ProfitConverter,
  type OrderProfitInput,
  type PrintifySkuHistoryLine,
  type ProfitSettings,
} from '@pod/domain';
import {
  DashboardRollupsRepository,
  FxRatesRepository,
  jsonForPostgres,
  OrderProfitsRepository,
  OrderRecordsRepository,
  ProfitInputsRepository,
  recordSides,
  withTransaction,
  type Db,
  type OrderProfitWrite,
  type UserProfitInputs,
} from '@pod/db';
import { ShopCosts } from './shop-costs';

export interface ProfitRunCounts {
  records: number;
  computed: number;
  written: number;
}

/** Engine settings not yet set by the seller (ADR 0010): Offsite Ads tier of a shop under USD 10k a year. */
const OFFSITE_ADS_TIER = 'under_10k' as const;

/** Records per write: their rows (one per display currency) fill about one of the repository's statements. */
const RECORDS_PER_WRITE = 600;

/**
 * One user's stored profits: load every record's inputs (set-based), build the converter from
 * the fx_rate rows of the dates needed, run the engine per record and display currency, and
 * write the rows that changed, in one transaction under the user's matching lock (so the
 * records cannot change sides meanwhile). A record whose inputs hash is unchanged and whose
 * figures are `ok` is not recomputed unless `force` (new ECB rates may change it); provisional
 * and rate-unavailable figures are figured again on every run.
 */
export class UserProfits {
  constructor(
    private readonly dataSource: DataSource,
    private readonly now: () => Date = () => new Date(),
    /** Records computed per write (tests make it small to cross batch boundaries). */
    private readonly recordsPerWrite = RECORDS_PER_WRITE,
    /** Told the ledger types found unclassified, each once per process (the worker logs them). */
    private readonly reportUnclassified: (ledgerTypes: string[]) => void = () => undefined,
  ) {}

  computeUser(userId: string, options: { force?: boolean } = {}): Promise<ProfitRunCounts> {
    return withTransaction(this.dataSource, async (manager) => {
      await new OrderRecordsRepository(manager).lockUserForMatching(userId);
      const inputs = await new ProfitInputsRepository(manager).load(userId);
      const profits = new OrderProfitsRepository(manager);
      const stored = await profits.storedKeys(userId);
      const orders = inputs.records.map((record) => ({
        record,
        input: withPrintifyPending(
          inputs,
          record,
          orderInput(inputs, record.receiptKey, record.printifyKey, record.attachedKeys),
        ),
      }));
      const pending = orders.filter((order) => order.input !== null) as {
        record: UserProfitInputs['records'][number];
        input: OrderProfitInput;
      }[];

      const hashes = new Map<string, string>();
      const accounts = new Map<string, CurrencyCode | null>();
      const toCompute = pending.filter(({ record, input }) => {
        const account = paymentAccountCurrencyOf(inputs, record.receiptKey);
        accounts.set(record.id, account);
        const hash = inputsHash(record.receiptKey, record.printifyKey, input, inputs.settings, account);
        hashes.set(record.id, hash);
        if (options.force) return true;
        return DISPLAY_CURRENCY_CODES.some((currency) => {
          const current = stored.get(`${record.id}:${currency}`);
          return !current || current.inputsHash !== hash || current.figures !== 'ok';
        });
      });
      const convert = rateTableConverter(
        await this.rateTableFor(
          manager,
          toCompute.map((order) => order.input),
        ),
      );
      const computedAt = this.now();
      // Batch by batch, each batch's write in flight while the next one is computed: PostgreSQL
      // stores one while the engine runs on the other (the engine and the writes cost about the same).
      const written: string[] = [];
      let writing: Promise<string[]> | null = null;
      for (let start = 0; start < toCompute.length; start += this.recordsPerWrite) {
        const rows: OrderProfitWrite[] = [];
        for (const { record, input } of toCompute.slice(start, start + this.recordsPerWrite)) {
          for (const displayCurrency of DISPLAY_CURRENCY_CODES) {
            const settings = profitSettingsFor(
              inputs,
              input,
              displayCurrency,
              convert,
              accounts.get(record.id) ?? null,
            );
            const figures = storedOrderFigures(computeOrderProfit(input, settings), convert);
            rows.push({
              ...figures,
              orderRecordId: record.id,
              recordSides: recordSides(record.receiptKey, record.printifyKey),
              inputsHash: hashes.get(record.id) ?? '',
            });
          }
        }
        if (writing) written.push(...(await writing));
        writing = profits.upsert(userId, rows, computedAt);
        // Awaited at the next batch or below; a failure meanwhile is not "unhandled".
        writing.catch(() => undefined);
        // A turn of the event loop, so the driver sends the batch before the engine takes the CPU again.
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (writing) written.push(...(await writing));
      // The dashboard's days of the records whose figures changed, once, in this transaction.
      await new DashboardRollupsRepository(manager).refreshRecords(userId, [...new Set(written)]);
      // The ledger's shop costs (ADR 0027), from the links this lock holds still.
      const shopCosts = await new ShopCosts().writeUser(manager, userId, inputs.settings.vatRegistered);
      if (shopCosts.newUnclassifiedTypes.length > 0) this.reportUnclassified(shopCosts.newUnclassifiedTypes);
      return { records: inputs.records.length, computed: toCompute.length, written: written.length };
    });
  }

  /**
   * Rates from the look-back before the earliest order date to the latest order or refund date
   * (a refund converts at its own date's rate, ADR 0026), for every currency.
   */
  private async rateTableFor(manager: Db, orders: readonly OrderProfitInput[]): Promise<RateTable> {
    if (orders.length === 0) return RateTable.fromRows([]);
    const dates = orders
      .flatMap((order) => [
        orderDateOf(order),
        ...(order.receipt?.refunds ?? []).map((refund) => orderDateUtc(refund.refundedAt)),
      ])
      .sort();
    const from = new Date(`${dates[0]}T00:00:00Z`);
    from.setUTCDate(from.getUTCDate() - EXCHANGE_LOOKBACK_DAYS);
    const rows = await new FxRatesRepository(manager).ratesBetween(
      from.toISOString().slice(0, 10),
      dates[dates.length - 1],
    );
    return RateTable.fromRows(rows);
  }
}

/**
 * The engine's settings for one order: the seller's profit settings (cost reading, VAT
 * registration), the shop's country, the Offsite Ads tier default, and the payment account's
 * currency (`accountCurrency`, see paymentAccountCurrencyOf; the user's only ledger currency when
 * not given). Not the payment's `currency`: that is the listing's, and reading it as the
 * account's hid the 2.5% conversion fee of every seller paid out in another currency.
 */
export function profitSettingsFor(
  inputs: UserProfitInputs,
  input: OrderProfitInput,
  displayCurrency: DisplayCurrencyCode,
  convert: ProfitConverter,
  accountCurrency: CurrencyCode | null = paymentAccountCurrencyOf(inputs, null),
): ProfitSettings {
  return {
    displayCurrency,
    printifyCostReading: inputs.settings.printifyCostReading,
    bankCountry: inputs.settings.bankCountry,
    paymentAccountCurrency: accountCurrency,
    offsiteAdsTier: OFFSITE_ADS_TIER,
    vatRegistered: inputs.settings.vatRegistered,
    convert,
  };
}

/**
 * One record's engine input from the loaded rows: its receipt and every Printify order on it,
 * the primary first, then the attached ones (reprints, splits, added by hand: issue 17); null
 * when no side is stored.
 */
export function orderInput(
  inputs: UserProfitInputs,
  receiptKey: string | null,
  printifyKey: string | null,
  attachedKeys: readonly string[] = [],
): OrderProfitInput | null {
  const receipt = receiptKey ? (inputs.receipts.get(receiptKey) ?? null) : null;
  const printifyOrders = [printifyKey, ...attachedKeys].flatMap((key) => {
    const order = key ? inputs.printifyOrders.get(key) : undefined;
    return order ? [order] : [];
  });
  if (!receipt && printifyOrders.length === 0) return null;
  return {
    receipt,
    payments: receiptKey ? (inputs.payments.get(receiptKey) ?? []) : [],
    ledgerEntries: receiptKey ? (inputs.ledgerEntries.get(receiptKey) ?? []) : [],
    printifyOrders,
  };
}

/** Receipt statuses after which nothing is sent to Printify. */
const CLOSED_RECEIPT_STATUSES = new Set(['canceled', 'fully refunded']);

/**
 * A receipt still waiting for its Printify order (no Printify order on the record, the record
 * not `not_needed`, the receipt not canceled or fully refunded) gets the estimate of its Printify
 * cost from the same SKUs' latest Printify lines, or why there is none (ADR 0031). Once its
 * Printify order is on the record the estimate is gone: the inputs, and their hash, change, so
 * the record is figured again from the real cost.
 */
export function withPrintifyPending(
  inputs: UserProfitInputs,
  record: Pick<UserProfitInputs['records'][number], 'status'>,
  input: OrderProfitInput | null,
): OrderProfitInput | null {
  const receipt = input?.receipt;
  if (!input || !receipt || input.printifyOrders.length > 0 || record.status === 'not_needed') return input;
  if (CLOSED_RECEIPT_STATUSES.has(receipt.status)) return input;
  const skus = new Set(receipt.lines.map((line) => (line.sku ?? '').trim()));
  const history: PrintifySkuHistoryLine[] = inputs.printifySkuHistory.filter((line) => skus.has(line.sku));
  const lines = receipt.lines.map((line) => ({ sku: line.sku ?? null, quantity: line.quantity }));
  return { ...input, printifyPending: estimatePrintifyCost(lines, history, inputs.settings.printifyCostReading) };
}

function orderDateOf(input: OrderProfitInput): string {
  if (input.receipt) return orderDateUtc(input.receipt.orderedAt);
  return orderDateUtc(new Date(Math.min(...input.printifyOrders.map((order) => order.orderedAt.getTime()))));
}

/**
 * The payment account's currency for a record (ADR 0026): the currency of its receipt's shop's
 * ledger; for a record without a receipt (or a shop with no ledger yet), the user's ledger
 * currency if all their shops share one; else unknown (the engine then reads the order's own
 * ledger entries, or leaves the conversion fee unestimated).
 */
export function paymentAccountCurrencyOf(inputs: UserProfitInputs, receiptKey: string | null): CurrencyCode | null {
  const shopId = receiptKey === null ? null : receiptKey.slice(0, receiptKey.indexOf(':'));
  const own = shopId === null ? undefined : inputs.ledgerCurrencies.get(shopId);
  if (own) return own;
  const currencies = new Set(inputs.ledgerCurrencies.values());
  return currencies.size === 1 ? [...currencies][0] : null;
}

/**
 * A fingerprint of everything but the rates a record's figures depend on. `v` is the stored
 * breakdown's shape: raising it has every record figured again once (v2: provisional figures and
 * the processing fee's parts; v3: every fee from its source, ADR 0026; v4: the VAT in a registered
 * seller's prices; v5: where the Printify cost comes from, a waiting receipt's estimate, ADR 0031;
 * signed lines that add up to their totals and why each estimate is one, ADR 0030; v6: no
 * estimated Printify cost for a receipt not paid yet).
 */
function inputsHash(
  receiptKey: string | null,
  printifyKey: string | null,
  input: OrderProfitInput,
  settings: UserProfitInputs['settings'],
  account: CurrencyCode | null,
): string {
  const text = jsonForPostgres({ v: 6, receiptKey, printifyKey, input, settings, account, tier: OFFSITE_ADS_TIER });
  return createHash('sha256').update(text).digest('base64url');
}
