import type { OrderRecordShape, PrintifyOrderToMatch, ReceiptToMatch } from './types';
import { orderRef, receiptRef } from './types';

type Pairing = Pick<OrderRecordShape, 'status' | 'method' | 'confidence'> &
  Partial<Pick<OrderRecordShape, 'notNeededReason' | 'attached'>>;

/**
 * A record's shape from its sides: the list fields come from the Etsy side where there is one
 * (the spec's rule for the order date, applied to every field), else from the Printify side.
 */
export function describeRecord(
  receipt: ReceiptToMatch | null,
  order: PrintifyOrderToMatch | null,
  pairing: Pairing,
): OrderRecordShape {
  const firstLine = (side: ReceiptToMatch | PrintifyOrderToMatch | null, field: 'title' | 'sku') =>
    side?.lines.map((line) => line[field]?.trim() ?? '').find((value) => value !== '') ?? null;
  return {
    receipt: receipt ? receiptRef(receipt) : null,
    order: order ? orderRef(order) : null,
    attached: pairing.attached ?? [],
    status: pairing.status,
    notNeededReason: pairing.notNeededReason ?? null,
    method: pairing.method,
    confidence: pairing.confidence,
    orderDate: receipt?.orderedAt ?? order?.orderedAt ?? null,
    customerName: nonEmpty(receipt?.buyerName) ?? nonEmpty(order?.buyerName),
    productTitle: firstLine(receipt, 'title') ?? firstLine(order, 'title'),
    productSku: firstLine(receipt, 'sku') ?? firstLine(order, 'sku'),
  };
}

function nonEmpty(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}
