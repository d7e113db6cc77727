import { BUYER_CURRENCY, feesFor, processingFeeReturned } from '../data/fees';
import type { OrderModel } from '../data/order-generator';
import type { ShopProfile } from '../data/shop-profile';
import { money } from './receipt-json';

export function paymentIdOf(shop: ShopProfile, order: OrderModel): number {
  return shop.paymentBase + order.index;
}

export function adjustmentIdOf(shop: ShopProfile, order: OrderModel): number {
  return shop.adjustmentBase + order.index;
}

export function paymentAdjustmentJson(shop: ShopProfile, order: OrderModel): Record<string, unknown> | null {
  if (!order.refund) return null;
  const fees = feesFor(order, shop);
  const id = adjustmentIdOf(shop, order);
  const ts = order.refund.ts;
  return {
    payment_adjustment_id: id,
    payment_id: paymentIdOf(shop, order),
    status: 'SUCCESS',
    is_success: true,
    user_id: shop.userId,
    reason_code: order.canceledTs !== null ? 'cancel' : order.refund.full ? 'refund_full' : 'refund_partial',
    total_adjustment_amount: order.refund.amount,
    shop_total_adjustment_amount: order.refund.amount,
    buyer_total_adjustment_amount: order.refund.amount,
    total_fee_adjustment_amount: processingFeeReturned(order, fees, order.refund.amount),
    create_timestamp: ts,
    created_timestamp: ts,
    update_timestamp: ts,
    updated_timestamp: ts,
    payment_adjustment_items: adjustmentItems(order, id, ts),
  };
}

/** A full refund is one item for the whole payment; a partial one is spread over the lines by value. */
function adjustmentItems(order: OrderModel, id: number, ts: number): Array<Record<string, unknown>> {
  const refund = order.refund as NonNullable<OrderModel['refund']>;
  const item = (n: number, amount: number, transactionId: number | null) => ({
    payment_adjustment_id: id,
    payment_adjustment_item_id: id * 10 + n,
    adjustment_type: refund.full ? 'FULL' : 'PARTIAL',
    amount,
    shop_amount: amount,
    transaction_id: transactionId,
    bill_payment_id: null,
    created_timestamp: ts,
    updated_timestamp: ts,
  });
  if (refund.full || order.lines.length === 1)
    return [item(1, refund.amount, refund.full ? null : order.lines[0].transactionId)];
  let left = refund.amount;
  return order.lines.map((line, n) => {
    const amount =
      n === order.lines.length - 1
        ? left
        : Math.round((refund.amount * line.unitPrice * line.quantity) / order.totalPrice);
    left -= amount;
    return item(n + 1, amount, line.transactionId);
  });
}

/**
 * The currency code a payment's amounts are labelled with. integrations.md a.6 (etsy/open-api
 * issue #564): "some payments show the buyer currency code while the values are in shop
 * currency". One in four payments (by payment id) of a buyer paying in another currency is
 * served that way; the values stay the shop currency's.
 */
export function paymentLabel(shop: ShopProfile, order: OrderModel): string {
  const buyer = buyerCurrency(order);
  return buyer !== shop.currency && paymentIdOf(shop, order) % 4 === 0 ? buyer : shop.currency;
}

function buyerCurrency(order: OrderModel): string {
  return BUYER_CURRENCY[order.place.country] ?? 'EUR';
}

/**
 * The Payment of a receipt. posted_* stay null until the order ships (as the Payments tutorial
 * describes); adjusted_* show the amounts after refunds.
 */
export function paymentJson(shop: ShopProfile, order: OrderModel): Record<string, unknown> {
  const c = paymentLabel(shop, order);
  const fees = feesFor(order, shop);
  const gross = order.grandTotal;
  const refunded = order.refund?.amount ?? 0;
  const feeBack = order.refund ? processingFeeReturned(order, fees, refunded) : 0;
  const posted = order.shippedTs !== null;
  const adjustment = paymentAdjustmentJson(shop, order);
  return {
    payment_id: paymentIdOf(shop, order),
    buyer_user_id: order.buyerUserId,
    shop_id: shop.shopId,
    receipt_id: order.receiptId,
    amount_gross: money(gross, c),
    amount_fees: money(fees.processing, c),
    amount_net: money(gross - fees.processing, c),
    posted_gross: posted ? money(gross, c) : null,
    posted_fees: posted ? money(fees.processing, c) : null,
    posted_net: posted ? money(gross - fees.processing, c) : null,
    adjusted_gross: money(gross - refunded, c),
    adjusted_fees: money(fees.processing - feeBack, c),
    adjusted_net: money(gross - refunded - (fees.processing - feeBack), c),
    currency: c,
    shop_currency: shop.currency,
    buyer_currency: buyerCurrency(order),
    shipping_user_id: order.buyerUserId,
    shipping_address_id: order.buyerUserId + 11,
    billing_address_id: order.buyerUserId + 13,
    status: posted ? 'settled' : 'authed',
    shipped_timestamp: order.shippedTs,
    create_timestamp: order.paidTs ?? order.createdTs,
    created_timestamp: order.paidTs ?? order.createdTs,
    update_timestamp: order.updatedTs,
    updated_timestamp: order.updatedTs,
    payment_adjustments: adjustment ? [adjustment] : [],
  };
}
