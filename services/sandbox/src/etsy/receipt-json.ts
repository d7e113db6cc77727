import { escapeEtsyHtml } from '../data/catalog';
import type { OrderLine, OrderModel } from '../data/order-generator';
import type { ShopProfile } from '../data/shop-profile';

/** Etsy's Money: divide amount by divisor. The divisor is usually 100, sometimes not. */
export function money(
  amount: number,
  currency: string,
  divisor = 100,
): { amount: number; divisor: number; currency_code: string } {
  return { amount: divisor === 1000 ? amount * 10 : amount, divisor, currency_code: currency };
}

const DESCRIPTIONS: Record<string, string> = {
  tee: "Soft, lightweight unisex tee. It's printed on demand & shipped from the nearest print partner.",
  hoodie: 'Cozy "crewneck" hoodie with a double-lined hood. Printed on demand.',
  sweatshirt: 'Classic fit sweatshirt, 50/50 cotton & polyester.',
  mug: "Glossy ceramic mug, dishwasher & microwave safe. Makes a great gift for mom's coffee.",
  poster: 'Museum-quality matte poster on 189 gsm paper. Frame not included.',
  tote: 'Sturdy 100% cotton tote bag – perfect for books & groceries.',
  'phone-case': 'Slim, glossy polycarbonate case with a "soft-touch" inner lining.',
  sticker: 'Durable kiss-cut vinyl sticker, water & scratch resistant.',
  digital: 'INSTANT DOWNLOAD – no physical item will be shipped. Print at home or at your local print shop.',
};

function variations(line: OrderLine): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  const label = line.listing.variants[line.variantIndex].spec.label;
  const [first, second] = label.split(' / ');
  const apparel = ['tee', 'hoodie', 'sweatshirt'].includes(line.listing.spec.kind);
  if (apparel) {
    out.push({ property_id: 513, value_id: null, formatted_name: 'Size', formatted_value: second });
    out.push({ property_id: 200, value_id: null, formatted_name: 'Color', formatted_value: first });
  } else if (line.listing.spec.kind !== 'digital') {
    out.push({
      property_id: 514,
      value_id: null,
      formatted_name: line.listing.spec.kind === 'phone-case' ? 'Model' : 'Size',
      formatted_value: escapeEtsyHtml(label),
    });
  }
  if (line.personalization !== null) {
    out.push({
      property_id: 54,
      value_id: null,
      formatted_name: 'Personalization',
      formatted_value: escapeEtsyHtml(line.personalization),
    });
  }
  return out;
}

export function transactionJson(shop: ShopProfile, order: OrderModel, line: OrderLine): Record<string, unknown> {
  const divisor = order.divisor1000 ? 1000 : 100;
  const coupon = Math.round(line.discountShare) / 100;
  const abroad = order.place.country !== shop.country;
  return {
    transaction_id: line.transactionId,
    title: escapeEtsyHtml(line.listing.spec.title),
    description: escapeEtsyHtml(DESCRIPTIONS[line.listing.spec.kind]),
    seller_user_id: shop.userId,
    buyer_user_id: order.buyerUserId,
    create_timestamp: order.createdTs,
    created_timestamp: order.createdTs,
    paid_timestamp: order.paidTs,
    shipped_timestamp: order.shippedTs,
    quantity: line.quantity,
    listing_image_id: line.listing.imageId,
    receipt_id: order.receiptId,
    is_digital: line.isDigital,
    file_data: line.isDigital ? (line.listing.spec.fileData ?? '1 PNG') : '',
    listing_id: line.listing.listingId,
    transaction_type: 'listing',
    product_id: line.listing.variants[line.variantIndex].productId,
    sku: line.etsySku,
    price: money(line.unitPrice, shop.currency, divisor),
    shipping_cost: money(line.shipping, shop.currency, divisor),
    variations: variations(line),
    product_data: [],
    shipping_profile_id: line.isDigital ? null : line.listing.shippingProfileId,
    min_processing_days: line.isDigital ? null : 1,
    max_processing_days: line.isDigital ? null : 5,
    shipping_method: null,
    shipping_upgrade: null,
    expected_ship_date: line.isDigital ? null : order.createdTs + 5 * 86_400,
    // buyer_coupon is in the buyer's currency in real data; shop_coupon in the shop's.
    buyer_coupon: abroad ? Math.round(coupon * 137) / 100 : coupon,
    shop_coupon: coupon,
  };
}

export function receiptJson(shop: ShopProfile, order: OrderModel): Record<string, unknown> {
  const c = shop.currency;
  const p = order.place;
  const name = `${order.buyerFirst} ${order.buyerLast}`;
  const lines = [
    name,
    order.address1,
    order.address2,
    `${p.city}${p.state ? `, ${p.state}` : ''} ${p.zip}`,
    p.country,
  ].filter((v): v is string => v !== null);
  const physical = order.lines.some((l) => !l.isDigital);
  return {
    receipt_id: order.receiptId,
    receipt_type: 0,
    seller_user_id: shop.userId,
    seller_email: shop.sellerEmail,
    buyer_user_id: order.buyerUserId,
    buyer_email: null,
    name,
    first_line: order.address1,
    second_line: order.address2,
    city: p.city,
    state: p.state,
    zip: p.zip,
    status: order.status,
    formatted_address: lines.join('\n'),
    country_iso: p.country,
    payment_method: order.paymentMethod,
    payment_email: null,
    message_from_seller: null,
    message_from_buyer: order.messageFromBuyer,
    message_from_payment: null,
    is_paid: order.paidTs !== null,
    is_shipped: order.shippedTs !== null,
    create_timestamp: order.createdTs,
    created_timestamp: order.createdTs,
    update_timestamp: order.updatedTs,
    updated_timestamp: order.updatedTs,
    is_gift: order.isGift,
    gift_message: order.giftMessage,
    gift_sender: order.isGift ? order.buyerFirst : '',
    grandtotal: money(order.grandTotal, c),
    subtotal: money(order.subtotal, c),
    total_price: money(order.totalPrice, c),
    total_shipping_cost: money(order.shippingTotal, c),
    total_tax_cost: money(order.taxTotal, c),
    total_vat_cost: money(order.vatTotal, c),
    discount_amt: money(order.discount, c),
    gift_wrap_price: money(0, c),
    shipments:
      order.shippedTs !== null && physical
        ? [
            {
              receipt_shipping_id: order.receiptId + 7,
              shipment_notification_timestamp: order.shippedTs,
              carrier_name: order.carrier,
              tracking_code: order.trackingCode,
            },
          ]
        : [],
    transactions: order.lines.map((line) => transactionJson(shop, order, line)),
    refunds: order.refund
      ? [
          {
            amount: money(order.refund.amount, c),
            created_timestamp: order.refund.ts,
            reason: order.refund.reason,
            note_from_issuer: null,
            status: 'SUCCESS',
          },
        ]
      : [],
  };
}
