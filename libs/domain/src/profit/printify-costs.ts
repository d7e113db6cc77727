import type { CurrencyCode } from '../currency';
import { money, MoneyError, type Money } from '../money';
import type { PrintifyOrderInput, ProfitSettings } from './inputs';

/**
 * What Printify charges for an order (integrations.md §b.4): Σ line production cost +
 * Σ line shipping + the order's tax. Whether a line's `cost` is per unit or already for the
 * whole line is UNCONFIRMED, so the account setting decides: `per_unit` multiplies it by the
 * quantity, `per_line` takes it as sent. A canceled order costs nothing, and neither does a
 * canceled line of an order that goes ahead. Several orders (an original and its reprints) add
 * up, per currency.
 */
export interface PrintifyCosts {
  readonly currency: CurrencyCode;
  readonly production: Money;
  readonly shipping: Money;
  readonly tax: Money;
  /** Orders in this group that were canceled and so cost nothing. */
  readonly canceledOrders: readonly string[];
}

/** Printify writes statuses with hyphens or underscores (§b.4): compare them normalised. */
function isCanceled(status: string | null): boolean {
  return status !== null && status.trim().toLowerCase().replace(/_/g, '-') === 'canceled';
}

function whole(value: number, field: string, order: PrintifyOrderInput): number {
  if (!Number.isSafeInteger(value))
    throw new MoneyError(`Printify order ${order.orderId}: ${field} is not a whole number`);
  return value;
}

export function printifyCosts(
  orders: readonly PrintifyOrderInput[],
  reading: ProfitSettings['printifyCostReading'],
): PrintifyCosts[] {
  const groups = new Map<CurrencyCode, { production: number; shipping: number; tax: number; canceled: string[] }>();
  for (const order of orders) {
    const group = groups.get(order.currency) ?? { production: 0, shipping: 0, tax: 0, canceled: [] };
    groups.set(order.currency, group);
    if (isCanceled(order.status)) {
      group.canceled.push(order.orderId);
      continue;
    }
    for (const [index, line] of order.lines.entries()) {
      if (isCanceled(line.status)) continue;
      const cost = whole(line.costMinor, `line ${index} cost`, order);
      const quantity = whole(line.quantity, `line ${index} quantity`, order);
      group.production += reading === 'per_unit' ? cost * quantity : cost;
      group.shipping += whole(line.shippingMinor, `line ${index} shipping_cost`, order);
    }
    group.tax += whole(order.totalTaxMinor, 'total_tax', order);
  }
  return [...groups.entries()].map(([currency, group]) => ({
    currency,
    production: money(group.production, currency),
    shipping: money(group.shipping, currency),
    tax: money(group.tax, currency),
    canceledOrders: group.canceled,
  }));
}
