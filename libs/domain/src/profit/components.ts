import type { FeePart } from '../fees/estimate';
import type { FeeKind, FeeSource } from '../fees/fee-kinds';
import type { Money } from '../money';
import type { EstimateReason } from './estimate-reasons';

/** The cost lines of an order: Printify's three, then Etsy's fees by kind. */
export type CostKind = 'printify_production' | 'printify_shipping' | 'printify_tax' | FeeKind;

export type CostSource = 'printify' | FeeSource;

/**
 * One cost line in the currency it was charged or estimated in. An order may hold several of
 * one kind (a fixed processing fee in the bank's currency beside the percentage in the shop's;
 * ledger entries in two currencies), each converted on its own.
 */
export interface CostComponent {
  readonly kind: CostKind;
  readonly source: CostSource;
  readonly estimated: boolean;
  readonly original: Money;
  /** Why this figure: the ledger types summed, the estimate's rule, a cap that applied. */
  readonly note: string;
  /** For an estimate of one part of a percentage-plus-fixed fee: which part (the lines' labels tell them apart). */
  readonly part?: FeePart;
  /** For an estimate: why there is no recorded figure (absent on recorded lines). */
  readonly estimateReason?: EstimateReason;
}
