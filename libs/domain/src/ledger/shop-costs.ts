import type { CurrencyCode } from '../currency';
import { ledgerClass, isSoldListingFee, type ShopCostKind } from '../fees/ledger-types';
import { money, MoneyError } from '../money';
import { convertForDisplay, isRateUnavailable, orderDateUtc, type ProfitConverter } from '../profit/converter';

/** A stored ledger entry, as the shop-cost rollup reads it. */
export interface ShopCostEntryInput {
  readonly entryId: string;
  readonly ledgerType: string;
  readonly parentEntryId: string | null;
  /** Whether the entry is linked to an order (its receipt is known): then the order carries it. */
  readonly linkedToOrder: boolean;
  readonly currency: CurrencyCode;
  /** Signed as Etsy sends it: charges negative, credits positive. */
  readonly amountMinor: number;
  readonly createdAt: Date;
}

/**
 * The shop-cost kind of an entry, or null when it is not a shop cost (an order carries it, or
 * it is a payout or transfer). Order-tied types whose order is not linked yet are left for the
 * order (they count once it arrives), except `renew_sold`/`renew_sold_auto`: a listing fee not
 * attributed to a sale is a shop cost of kind `listing` until it is. VAT on a fee follows the
 * entry it taxes (`parent_entry_id`); VAT whose taxed entry is not stored is kind `vat`.
 */
export function shopCostKindOf(
  entry: Pick<ShopCostEntryInput, 'ledgerType' | 'parentEntryId' | 'linkedToOrder'>,
  parentOf: (entryId: string) => Pick<ShopCostEntryInput, 'ledgerType' | 'parentEntryId' | 'linkedToOrder'> | undefined,
  depth = 0,
): ShopCostKind | null {
  if (entry.linkedToOrder) return null;
  const meaning = ledgerClass(entry.ledgerType);
  switch (meaning.class) {
    case 'order':
      return isSoldListingFee(entry.ledgerType) ? 'listing' : null;
    case 'shop_cost':
      return meaning.kind;
    case 'payout':
      return null;
    case 'unclassified':
      return 'unclassified';
    case 'vat_on_fee': {
      const parent = entry.parentEntryId && depth < 4 ? parentOf(entry.parentEntryId) : undefined;
      if (!parent) return 'vat';
      // The taxed entry's kind; VAT on an order fee whose order is not linked yet waits with its fee.
      return shopCostKindOf(parent, parentOf, depth + 1);
    }
  }
}

/** One day's shop costs of one kind in one display currency (costs positive, credits negative). */
export interface ShopCostDay {
  readonly day: string;
  readonly kind: ShopCostKind;
  readonly currency: CurrencyCode;
  readonly costMinor: number;
  readonly entries: number;
  /** Entries of the day and kind with no rate yet: counted here, summed as nothing. */
  readonly withoutRate: number;
  /** Entries converted at a stand-in day's rates (their own not loaded yet): in the cost, provisionally. */
  readonly provisional: number;
}

/**
 * The shop costs of a user's ledger per UTC day and kind in `displayCurrency`: each entry
 * converted at its own date's ECB rate through the profit engine's converter (the rules of
 * order figures: an amount already in the display currency needs no rate; a day not loaded
 * yet converts provisionally, counted in `provisional`), a cost being minus the signed amount.
 * An entry without a rate is counted in `withoutRate`, never as zero. A VAT-registered seller
 * reclaims the VAT on Etsy's fees (issue 17, ADR 0026 decision 9): with `vatReclaimed` it is no
 * shop cost, as it is no order cost.
 */
export function shopCostDays(
  entries: readonly ShopCostEntryInput[],
  displayCurrency: CurrencyCode,
  convert: ProfitConverter,
  options: { vatReclaimed?: boolean } = {},
): ShopCostDay[] {
  const byId = new Map(entries.map((entry) => [entry.entryId, entry]));
  const days = new Map<
    string,
    { day: string; kind: ShopCostKind; costMinor: number; entries: number; withoutRate: number; provisional: number }
  >();
  for (const entry of entries) {
    const kind = shopCostKindOf(entry, (id) => byId.get(id));
    if (kind === null) continue;
    if (options.vatReclaimed && ledgerClass(entry.ledgerType).class === 'vat_on_fee') continue;
    if (!Number.isSafeInteger(entry.amountMinor)) {
      throw new MoneyError(`ledger entry ${entry.entryId} amount is not a whole number of minor units`);
    }
    const day = orderDateUtc(entry.createdAt);
    const key = `${day}:${kind}`;
    const group = days.get(key) ?? { day, kind, costMinor: 0, entries: 0, withoutRate: 0, provisional: 0 };
    group.entries += 1;
    const answer = convertForDisplay(convert, money(-entry.amountMinor, entry.currency), displayCurrency, day);
    if (isRateUnavailable(answer)) group.withoutRate += 1;
    else {
      group.costMinor += answer.amount.amountMinor;
      if (answer.provisional) group.provisional += 1;
    }
    days.set(key, group);
  }
  return [...days.values()]
    .sort((a, b) => a.day.localeCompare(b.day) || a.kind.localeCompare(b.kind))
    .map((group) => ({ ...group, currency: displayCurrency }));
}
