import type { CurrencyCode, Money } from '@pod/domain';
import type { EtsyLedgerEntry, EtsyPayment, EtsyReceipt, PrintifyOrder, RejectedRecord } from '@pod/integrations';
import type { EtsyLedgerEntryRow, EtsyPaymentRow, EtsyReceiptRow, PrintifyOrderRow, QuarantinedRecord } from '@pod/db';

/**
 * Provider records (already mapped and schema-checked by the clients) → the rows the order
 * tables store. A record whose amounts are not all in one currency cannot be stored as the
 * row's `currency` claims, so it is quarantined rather than stored wrong.
 */
export type RowOutcome<Row> = { ok: true; row: Row } | { ok: false; quarantined: QuarantinedRecord };

class MixedCurrencies extends Error {
  constructor(readonly field: string) {
    super(`${field} is not in the record's currency`);
  }
}

function amountIn(value: Money, currency: CurrencyCode, field: string): number {
  if (value.currency !== currency) throw new MixedCurrencies(field);
  return value.amountMinor;
}

function optionalIn(value: Money | null, currency: CurrencyCode, field: string): number | null {
  return value === null ? null : amountIn(value, currency, field);
}

function outcome<Row>(recordKey: string, payload: unknown, build: () => Row): RowOutcome<Row> {
  try {
    return { ok: true, row: build() };
  } catch (error) {
    if (!(error instanceof MixedCurrencies)) throw error;
    return {
      ok: false,
      quarantined: {
        recordKey,
        field: error.field,
        reason: 'is in another currency than the rest of the record',
        payload,
      },
    };
  }
}

/** Refunds that went through: Etsy reports them as "success" (or says nothing of their status). */
function isSettledRefund(status: string | null): boolean {
  return status === null || status === 'success' || status === 'succeeded';
}

export function etsyReceiptRow(receipt: EtsyReceipt, payload: unknown): RowOutcome<EtsyReceiptRow> {
  return outcome(receipt.receiptId, payload, () => {
    const c = receipt.currency;
    return {
      receiptId: receipt.receiptId,
      status: receipt.status,
      isPaid: receipt.isPaid,
      isShipped: receipt.isShipped,
      buyerName: receipt.name,
      buyerUserId: receipt.buyerUserId,
      zip: receipt.zip,
      countryIso: receipt.countryIso,
      currency: c,
      grandtotalMinor: amountIn(receipt.grandtotal, c, 'grandtotal'),
      subtotalMinor: amountIn(receipt.subtotal, c, 'subtotal'),
      totalPriceMinor: amountIn(receipt.totalPrice, c, 'total_price'),
      totalShippingMinor: amountIn(receipt.totalShippingCost, c, 'total_shipping_cost'),
      totalTaxMinor: amountIn(receipt.totalTaxCost, c, 'total_tax_cost'),
      totalVatMinor: optionalIn(receipt.totalVatCost, c, 'total_vat_cost'),
      discountMinor: optionalIn(receipt.discountAmt, c, 'discount_amt'),
      giftWrapMinor: optionalIn(receipt.giftWrapPrice, c, 'gift_wrap_price'),
      refundedMinor: receipt.refunds
        .filter((refund) => isSettledRefund(refund.status))
        .reduce((sum, refund, index) => sum + amountIn(refund.amount, c, `refunds[${index}].amount`), 0),
      orderedAt: receipt.createdAt,
      sourceUpdatedAt: receipt.updatedAt,
      lines: receipt.transactions.map((line) => ({
        transactionId: line.transactionId,
        listingId: line.listingId,
        productId: line.productId,
        title: line.title,
        sku: line.sku,
        quantity: line.quantity,
        currency: line.price.currency,
        unitPriceMinor: line.price.amountMinor,
        shippingMinor:
          line.shippingCost === null
            ? null
            : amountIn(line.shippingCost, line.price.currency, 'transactions.shipping_cost'),
        isDigital: line.isDigital,
      })),
      payload,
    };
  });
}

export function etsyPaymentRow(payment: EtsyPayment, payload: unknown): RowOutcome<EtsyPaymentRow> {
  return outcome(payment.paymentId, payload, () => {
    const c = payment.amountGross.currency;
    return {
      paymentId: payment.paymentId,
      receiptId: payment.receiptId,
      currency: c,
      amountGrossMinor: payment.amountGross.amountMinor,
      amountFeesMinor: amountIn(payment.amountFees, c, 'amount_fees'),
      amountNetMinor: amountIn(payment.amountNet, c, 'amount_net'),
      postedGrossMinor: optionalIn(payment.postedGross, c, 'posted_gross'),
      postedFeesMinor: optionalIn(payment.postedFees, c, 'posted_fees'),
      postedNetMinor: optionalIn(payment.postedNet, c, 'posted_net'),
      adjustedGrossMinor: optionalIn(payment.adjustedGross, c, 'adjusted_gross'),
      adjustedFeesMinor: optionalIn(payment.adjustedFees, c, 'adjusted_fees'),
      adjustedNetMinor: optionalIn(payment.adjustedNet, c, 'adjusted_net'),
      status: payment.status,
      sourceUpdatedAt: payment.updatedAt,
      payload,
    };
  });
}

export function etsyLedgerEntryRow(entry: EtsyLedgerEntry, payload: unknown): EtsyLedgerEntryRow {
  return {
    entryId: entry.entryId,
    ledgerType: entry.ledgerType,
    referenceType: entry.referenceType,
    referenceId: entry.referenceId,
    parentEntryId: entry.parentEntryId,
    currency: entry.amount.currency,
    amountMinor: entry.amount.amountMinor,
    entryCreatedAt: entry.createdAt,
    payload,
  };
}

export function printifyOrderRow(order: PrintifyOrder, payload: unknown): RowOutcome<PrintifyOrderRow> {
  return outcome(order.id, payload, () => {
    const c = order.currency;
    const name = [order.addressTo.firstName, order.addressTo.lastName].filter((part) => part && part.trim()).join(' ');
    return {
      orderId: order.id,
      appOrderId: order.appOrderId,
      status: order.status,
      orderType: order.orderType,
      shopOrderId: order.shopOrderId,
      shopOrderLabel: order.shopOrderLabel,
      buyerName: name === '' ? null : name,
      zip: order.addressTo.zip,
      country: order.addressTo.country,
      currency: c,
      totalPriceMinor: amountIn(order.totalPrice, c, 'total_price'),
      totalShippingMinor: amountIn(order.totalShipping, c, 'total_shipping'),
      totalTaxMinor: amountIn(order.totalTax, c, 'total_tax'),
      isReprint: order.isReprint,
      orderedAt: order.createdAt,
      sentToProductionAt: order.sentToProductionAt,
      fulfilledAt: order.fulfilledAt,
      lines: order.lineItems.map((line, index) => ({
        productId: line.productId,
        variantId: line.variantId,
        sku: line.sku,
        title: line.title,
        variantLabel: line.variantLabel,
        quantity: line.quantity,
        currency: c,
        costMinor: amountIn(line.cost, c, `line_items[${index}].cost`),
        shippingMinor: amountIn(line.shippingCost, c, `line_items[${index}].shipping_cost`),
        retailPriceMinor: optionalIn(line.retailPrice, c, `line_items[${index}].metadata.price`),
        status: line.status,
      })),
      payload,
    };
  });
}

/**
 * The client's rejected records, as quarantine rows: keyed by id, or, when the id was unreadable,
 * by the payload's hash (the repository's quarantineKey), never by the page or position it came
 * on, which change from fetch to fetch.
 */
export function quarantinedFrom(rejected: readonly RejectedRecord[]): QuarantinedRecord[] {
  return rejected.map((record) => ({
    recordKey: record.id,
    field: record.field,
    reason: record.reason,
    payload: record.payload,
  }));
}

/** Splits row outcomes into rows to store and records to quarantine. */
export function partition<Row>(outcomes: readonly RowOutcome<Row>[]): {
  rows: Row[];
  quarantined: QuarantinedRecord[];
} {
  const rows: Row[] = [];
  const quarantined: QuarantinedRecord[] = [];
  for (const item of outcomes) {
    if (item.ok) rows.push(item.row);
    else quarantined.push(item.quarantined);
  }
  return { rows, quarantined };
}
