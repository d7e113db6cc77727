import { PRODUCT_WEIGHTS, type ProductKind } from './catalog';
import { offsiteAdsRate } from './fees';
import { buyerCountries, CARRIERS, FIRST_NAMES, LAST_NAMES, placeIn, STREETS, type BuyerPlace } from './geography';
import type { Listing, ShopProfile } from './shop-profile';
import { etsyCollectedVat } from './vat';
import { Rng, STREAM } from '../core/random';

/**
 * One sale, rebuilt on demand from (seed, index): the internal model both the Etsy and the
 * Printify views are rendered from. All money here is integer minor units of the shop's
 * currency, except Printify costs (USD cents).
 */
export interface OrderLine {
  listing: Listing;
  variantIndex: number;
  quantity: number;
  transactionId: number;
  unitPrice: number;
  /** What the buyer pays for shipping this line. */
  shipping: number;
  /** This line's share of the coupon discount. */
  discountShare: number;
  /** The SKU as the Etsy transaction reports it ('' when the seller's listing has none). */
  etsySku: string;
  isDigital: boolean;
  personalization: string | null;
  /** Printify production cost per unit and shipping for the line (USD cents). */
  printifyCost: number;
  printifyShipping: number;
}

export interface PrintifyPlan {
  /** linked: external with shop_order_id; unlinked: external without it; manual: placed by hand. */
  kind: 'linked' | 'unlinked' | 'manual';
  orderId: string;
  createdTs: number;
  sentTs: number | null;
  fulfilledTs: number | null;
  status: string;
  taxCents: number;
  /**
   * A reprint of one damaged or misprinted unit (the first physical line, quantity 1): an extra
   * Printify order with its own cost, days after the original was fulfilled.
   */
  reprint: { orderId: string; createdTs: number; status: string; fulfilledTs: number | null } | null;
  /**
   * A split order: the physical lines from `fromLine` on are fulfilled by a second Printify order
   * (another print provider) that names the same receipt; the first order keeps the others.
   */
  split: { orderId: string; fromLine: number } | null;
  /** metadata.shop_order_id sent as a string, as in the docs' cancel example (b.4), instead of a number. */
  shopOrderIdAsText: boolean;
}

export interface Refund {
  ts: number;
  amount: number;
  full: boolean;
  reason: string;
}

export type ReceiptStatus =
  'Open' | 'Payment Processing' | 'Paid' | 'Completed' | 'Canceled' | 'Fully Refunded' | 'Partially Refunded';

export interface OrderModel {
  index: number;
  receiptId: number;
  buyerUserId: number;
  buyerFirst: string;
  buyerLast: string;
  place: BuyerPlace;
  address1: string;
  address2: string | null;
  createdTs: number;
  /** Null while the payment has not arrived (is_paid false): no payment, fees or Printify order yet. */
  paidTs: number | null;
  shippedTs: number | null;
  /** Marked delivered by the admin mutations API ('deliver'); otherwise delivery is inferred from the ship date. */
  deliveredTs: number | null;
  canceledTs: number | null;
  refund: Refund | null;
  updatedTs: number;
  status: ReceiptStatus;
  paymentMethod: string;
  isGift: boolean;
  giftMessage: string;
  messageFromBuyer: string | null;
  lines: OrderLine[];
  totalPrice: number;
  discount: number;
  subtotal: number;
  shippingTotal: number;
  taxTotal: number;
  vatTotal: number;
  grandTotal: number;
  freeShippingCoupon: boolean;
  offsiteAds: boolean;
  /** The Offsite Ads rate of the seller's standing when the order was placed (a.8: 0.15 or 0.12). */
  offsiteAdsRate: number;
  /** Bought an Etsy shipping label for this order (ledger `shipping_labels`), with a later adjustment when set. */
  shippingLabel: { cost: number; adjustment: number } | null;
  /** Money on this receipt's transactions uses divisor 1000 (amount × 10) to keep clients honest. */
  divisor1000: boolean;
  carrier: string;
  trackingCode: string;
  printify: PrintifyPlan | null;
}

/** Changes applied by the admin mutation API on top of the generated order. */
export interface OrderOverride {
  updatedTs?: number;
  /** The payment arrived (for a receipt still unpaid). */
  paidTs?: number;
  /** Inserted by a test: true leaves it unpaid, false pays it at once (no payment delay). */
  unpaid?: boolean;
  shippedTs?: number;
  /** The carrier delivered it (the admin mutations' 'deliver'; applies to shipped physical orders). */
  deliveredTs?: number;
  canceledTs?: number;
  refund?: Refund;
  /**
   * Inserted by a test with `printify: true`: the order reaches Printify at this time (once paid)
   * instead of hours later, past the inserted order's horizon (so never).
   */
  printifyCreatedTs?: number;
}

const DAY = 86_400;

const KIND_ENTRIES = Object.entries(PRODUCT_WEIGHTS) as Array<[ProductKind, number]>;
const PAYMENT_METHODS: Array<[string, number]> = [
  ['cc', 70],
  ['paypal', 15],
  ['apple_pay', 7],
  ['google_pay', 4],
  ['klarna', 2],
  ['other', 2],
];
const GIFT_MESSAGES = [
  'Happy birthday! Love, Sam',
  'Congrats on the new job 🎉',
  'For the best teacher ever',
  'Merry Christmas & a happy new year',
];
const BUYER_MESSAGES = [
  'Could you ship it before Friday? Thanks!',
  'Please leave at the back door',
  'Is it possible to gift-wrap this?',
];

export function generateOrder(
  shop: ShopProfile,
  index: number,
  createdTs: number,
  asOf: number,
  override?: OrderOverride,
): OrderModel {
  const rng = Rng.mix(shop.seedHash, STREAM.order, index);
  const receiptId = shop.receiptBase + index * 37 + rng.int(0, 36);
  // About one buyer in eight is a returning customer (one of 200), with the same name and address.
  const buyerKey = rng.chance(0.12) ? rng.int(0, 199) : 200 + index;
  const br = Rng.mix(shop.seedHash, STREAM.buyer, buyerKey);
  const country = br.weighted(buyerCountries(shop.currency));
  const place = placeIn(country, br.int(0, 999_999));
  const buyerFirst = br.pick(FIRST_NAMES);
  const buyerLast = br.pick(LAST_NAMES);
  const address1 = `${br.int(1, 2400)} ${br.pick(STREETS)}`;
  const address2 = br.chance(0.2) ? `Apt ${br.int(1, 40)}` : null;
  const abroad = country !== shop.country;
  // Now and then a bulk order (a team's or an event's hoodies) that came through an offsite ad:
  // large enough that the Offsite Ads fee reaches its cap (a.8). Its own stream, so the draws of
  // every other order stay as they were.
  const bulkRng = Rng.mix(shop.seedHash, STREAM.bulk, index);
  const bulk = bulkRng.chance(0.006) ? bulkRng : null;

  const lines = buildLines(shop, rng, index, abroad, bulk);
  const totalPrice = lines.reduce((sum, l) => sum + l.unitPrice * l.quantity, 0);
  const couponRoll = rng.next();
  let discount = 0;
  let freeShippingCoupon = false;
  if (couponRoll < 0.09) discount = Math.round((totalPrice * rng.pick([10, 15, 20, 25])) / 100);
  else if (couponRoll < 0.13) discount = Math.min(totalPrice - 100, rng.pick([500, 1000]));
  else if (couponRoll < 0.15) freeShippingCoupon = true;
  discount = Math.max(0, discount);
  if (freeShippingCoupon) for (const line of lines) line.shipping = 0;
  spreadDiscount(lines, discount, totalPrice);
  const subtotal = totalPrice - discount;
  const shippingTotal = lines.reduce((sum, l) => sum + l.shipping, 0);
  const taxBase = subtotal + shippingTotal;
  const taxTotal = Math.round(taxBase * place.salesTax);
  const vatTotal = etsyCollectedVat(shop.country, place, lines);
  const grandTotal = subtotal + shippingTotal + taxTotal + vatTotal;

  // A separate stream for what later versions added, so the values above stay as they were.
  const variety = Rng.mix(shop.seedHash, STREAM.variety, index);
  // Some payments take a while (Klarna, bank transfers, checks): every later event waits for it,
  // and a receipt whose payment has not arrived by `asOf` is unpaid (is_paid false).
  const delayRoll = variety.chance(0.06);
  const delayLength = variety.int(6 * 3600, 4 * DAY);
  // A quarter of the orders of the last three days still wait for their payment (its own stream,
  // so the draws above stay as they were): a shop of any size shows a few unpaid receipts.
  const pending =
    override?.unpaid === undefined &&
    createdTs > asOf - 3 * DAY &&
    Rng.mix(shop.seedHash, STREAM.pending, index).chance(0.25);
  const paymentDelay =
    delayRoll && override?.unpaid === undefined ? delayLength : pending ? asOf - createdTs + 6 * 3600 : 0;
  const paidAt =
    Math.min(createdTs + rng.int(0, 90), Math.max(createdTs, asOf)) +
    (override?.unpaid ? 100 * 365 * DAY : paymentDelay);
  const overridePaid = override?.paidTs !== undefined && paidAt > asOf ? override.paidTs : undefined;
  const delay =
    overridePaid !== undefined
      ? Math.max(0, overridePaid - createdTs)
      : paidAt - createdTs > 90
        ? paidAt - createdTs
        : 0;
  const paidTs: number | null = overridePaid ?? (paidAt <= asOf ? paidAt : null);
  const allDigital = lines.every((l) => l.isDigital);
  const cancelRoll = rng.chance(0.02);
  const cancelAt = createdTs + rng.int(3600, 2 * DAY) + delay;
  const shipAt = allDigital ? (paidTs ?? paidAt) : createdTs + rng.int(1, 5) * DAY + rng.int(0, 20 * 3600) + delay;
  const refundRoll = rng.chance(0.03);
  const refundAt = shipAt + rng.int(2, 25) * DAY + rng.int(0, DAY - 1);
  const refundFull = rng.chance(0.4);
  const refundShare = rng.pick([0.2, 0.3, 0.5]);
  const refundReason = rng.pick(['Item arrived damaged', 'Wrong size', 'Buyer changed mind', 'Account Adjustment']);

  let canceledTs: number | null = cancelRoll && cancelAt <= asOf ? cancelAt : null;
  let shippedTs: number | null = canceledTs === null && shipAt <= asOf ? shipAt : null;
  let refund: Refund | null = null;
  if (canceledTs !== null) refund = { ts: canceledTs, amount: grandTotal, full: true, reason: 'Order canceled' };
  else if (refundRoll && shippedTs !== null && refundAt <= asOf) {
    refund = {
      ts: refundAt,
      amount: refundFull ? grandTotal : Math.round(grandTotal * refundShare),
      full: refundFull,
      reason: refundReason,
    };
  }
  // A cancellation by the mutation API happens now, after whatever the order went through: a
  // shipped order stays shipped (its posted ledger entries never change) and is refunded in full.
  const canceledByMutation =
    override?.canceledTs !== undefined && canceledTs === null && refund === null && override.refund === undefined;
  if (canceledByMutation) {
    canceledTs = override.canceledTs as number;
    if (shippedTs !== null && shippedTs > canceledTs) shippedTs = null;
    refund = { ts: canceledTs, amount: grandTotal, full: true, reason: 'Order canceled' };
  }
  if (override?.shippedTs !== undefined && shippedTs === null && canceledTs === null && paidTs !== null)
    shippedTs = override.shippedTs;
  if (paidTs === null) {
    // Nothing happens to an order before its payment arrives.
    canceledTs = null;
    shippedTs = null;
    refund = null;
  }
  // One refund per order: a refund by the mutation API applies to an order not refunded or canceled before.
  if (override?.refund && canceledTs === null && refund === null) refund = override.refund;

  const paymentMethod = rng.weighted(PAYMENT_METHODS);
  const status: ReceiptStatus =
    paidTs === null
      ? paymentMethod === 'other'
        ? 'Open'
        : 'Payment Processing'
      : canceledTs !== null
        ? 'Canceled'
        : refund?.full
          ? 'Fully Refunded'
          : refund
            ? 'Partially Refunded'
            : shippedTs !== null
              ? 'Completed'
              : 'Paid';
  const updatedTs = Math.max(
    paidTs ?? createdTs,
    shippedTs ?? 0,
    canceledTs ?? 0,
    refund?.ts ?? 0,
    override?.updatedTs ?? 0,
  );
  const carriers = CARRIERS[country] ?? CARRIERS.default;

  const order: OrderModel = {
    index,
    receiptId,
    buyerUserId: br.int(100_000_000, 999_999_999),
    buyerFirst,
    buyerLast,
    place,
    address1,
    address2,
    createdTs,
    paidTs,
    shippedTs,
    deliveredTs:
      override?.deliveredTs !== undefined && shippedTs !== null && !allDigital
        ? Math.max(override.deliveredTs, shippedTs)
        : null,
    canceledTs,
    refund,
    updatedTs,
    status,
    paymentMethod,
    isGift: rng.chance(0.04),
    giftMessage: '',
    messageFromBuyer: rng.chance(0.05) ? rng.pick(BUYER_MESSAGES) : null,
    lines,
    totalPrice,
    discount,
    subtotal,
    shippingTotal,
    taxTotal,
    vatTotal,
    grandTotal,
    freeShippingCoupon,
    offsiteAds: rng.chance(0.05) || bulk !== null,
    offsiteAdsRate: offsiteAdsRate(shop.salesLast365Usd),
    shippingLabel: null,
    divisor1000: rng.chance(0.02),
    carrier: rng.pick(carriers),
    trackingCode: `${rng.alnum(2)}${rng.int(100_000_000, 999_999_999)}${country}`,
    printify: null,
  };
  if (order.isGift) order.giftMessage = rng.pick(GIFT_MESSAGES);
  // A few orders the seller ships with a label bought on Etsy (ledger `shipping_labels`).
  const labelRoll = variety.chance(0.03);
  const labelCost = variety.int(450, 1200);
  const labelAdjusted = variety.chance(0.25);
  if (labelRoll && shippedTs !== null && !allDigital)
    order.shippingLabel = { cost: labelCost, adjustment: labelAdjusted ? variety.int(50, 300) : 0 };
  order.printify = planPrintify(shop, order, rng, asOf, delay, variety.chance(0.1), override, canceledByMutation);
  return order;
}

/** Bulk orders are of hoodies and sweatshirts: the dearest apparel. */
const BULK_KINDS = ['hoodie', 'sweatshirt'];
/**
 * A bulk line's items come to at least this many minor units: at 12% that is more than the cap
 * (USD 100, EUR 90, GBP 80). At most 26 + 6 units (GBP 32.99 sweatshirts), so with three more
 * lines an order still has under 64 sale-fee entries (the ledger's slots per order).
 */
const BULK_ITEMS_MINOR = 85_000;

/** `bulk`: the first line becomes a bulk line, drawn from that stream (the order's own draws still happen). */
function buildLines(shop: ShopProfile, rng: Rng, index: number, abroad: boolean, bulk: Rng | null): OrderLine[] {
  const count = rng.weighted([
    [1, 920],
    [2, 60],
    [3, 15],
    [4, 5],
  ] as const);
  const lines: OrderLine[] = [];
  let physicalUnits = 0;
  for (let n = 0; n < count; n++) {
    const kind = rng.weighted(KIND_ENTRIES);
    let listing = rng.pick(shop.listingsByKind.get(kind) ?? shop.listings);
    let variantIndex = rng.int(0, listing.variants.length - 1);
    let quantity: number = rng.weighted([
      [1, 90],
      [2, 8],
      [3, 2],
    ] as const);
    if (bulk && n === 0) {
      listing = bulk.pick(shop.listings.filter((l) => BULK_KINDS.includes(l.spec.kind)));
      variantIndex = bulk.int(0, listing.variants.length - 1);
      quantity =
        Math.ceil(BULK_ITEMS_MINOR / listing.variants[variantIndex].spec.retail[shop.currency]) + bulk.int(0, 6);
    }
    const variant = listing.variants[variantIndex];
    const isDigital = listing.spec.kind === 'digital';
    const etsyShip = listing.spec.etsyShipping[shop.currency];
    const factor = abroad ? 2 : 1;
    const firstUnit = lines.length === 0 ? etsyShip.first : etsyShip.additional;
    const shipping = isDigital ? 0 : (firstUnit + etsyShip.additional * (quantity - 1)) * factor;
    let printifyShipping = 0;
    if (!isDigital && listing.spec.printifyShipping) {
      const ps = listing.spec.printifyShipping;
      const first = abroad ? ps.firstAbroad : ps.first;
      const extra = abroad ? ps.additionalAbroad : ps.additional;
      printifyShipping = physicalUnits === 0 ? first + extra * (quantity - 1) : extra * quantity;
      physicalUnits += quantity;
    }
    lines.push({
      listing,
      variantIndex,
      quantity,
      transactionId: shop.transactionBase + index * 8 + n,
      unitPrice: variant.spec.retail[shop.currency],
      shipping,
      discountShare: 0,
      etsySku: rng.chance(0.03) ? '' : variant.sku,
      isDigital,
      personalization:
        listing.spec.kind === 'mug' && rng.chance(0.2) ? rng.pick(['Jenny', 'Dad', 'Mr. & Mrs. Lee', "Nana's"]) : null,
      printifyCost: variant.spec.baseCostUsd ?? 0,
      printifyShipping,
    });
  }
  return lines;
}

function spreadDiscount(lines: OrderLine[], discount: number, totalPrice: number): void {
  if (discount === 0 || totalPrice === 0) return;
  let left = discount;
  lines.forEach((line, i) => {
    const share = i === lines.length - 1 ? left : Math.round((discount * line.unitPrice * line.quantity) / totalPrice);
    line.discountShare = share;
    left -= share;
  });
}

/** `delay`: how long the payment took; the order reaches Printify only after it. */
function planPrintify(
  shop: ShopProfile,
  order: OrderModel,
  rng: Rng,
  asOf: number,
  delay: number,
  shopOrderIdAsText: boolean,
  override: OrderOverride | undefined,
  canceledByMutation: boolean,
): PrintifyPlan | null {
  const physical = order.lines.filter((l) => !l.isDigital);
  const kind = rng.weighted([
    ['linked', 94],
    ['unlinked', 3],
    ['manual', 3],
  ] as const);
  const drawnCreatedTs = order.createdTs + delay + (kind === 'manual' ? rng.int(3600, DAY) : rng.int(300, 3 * 3600));
  const drawnSentTs = drawnCreatedTs + rng.int(600, 20 * 3600);
  const hasIssues = rng.chance(0.005);
  const keepCanceled = rng.chance(0.6);
  const reprintRoll = rng.chance(0.012);
  const reprintAt = (order.shippedTs ?? 0) + rng.int(3, 15) * DAY;
  // A test's insert with `printify: true` reaches Printify when paid (the draws above still happen,
  // so no other value of the order changes).
  const imported = override?.printifyCreatedTs !== undefined;
  const createdTs = imported ? Math.max(override.printifyCreatedTs as number, order.paidTs ?? 0) : drawnCreatedTs;
  const sentTs = imported
    ? Math.min(createdTs + (drawnSentTs - drawnCreatedTs), order.shippedTs ?? Infinity)
    : drawnSentTs;
  if (physical.length === 0 || (!imported && createdTs > asOf) || order.paidTs === null) return null;
  // A natural cancellation may come before the order reached Printify (or have it deleted); one by
  // the mutation API comes later: the Printify order stays in the list, canceled unless fulfilled.
  if (order.canceledTs !== null && !canceledByMutation && (!keepCanceled || createdTs > order.canceledTs)) return null;
  if (order.canceledTs !== null && canceledByMutation && createdTs > order.canceledTs) return null;
  const cost = physical.reduce((sum, l) => sum + l.printifyCost * l.quantity + l.printifyShipping, 0);
  let status: string;
  if (order.shippedTs !== null) status = 'fulfilled';
  else if (order.canceledTs !== null) status = 'canceled';
  else if (sentTs <= asOf) status = hasIssues ? 'has-issues' : 'in-production';
  else status = 'on-hold';
  const fulfilledTs = status === 'fulfilled' ? order.shippedTs : null;
  return {
    kind,
    orderId: Rng.mix(shop.idHash, STREAM.printifyId, order.index).hex(24),
    createdTs,
    sentTs: sentToProduction(status, sentTs, order.canceledTs),
    fulfilledTs,
    status,
    taxCents: order.place.vat > 0 ? Math.round(cost * 0.2) : 0,
    reprint:
      reprintRoll && fulfilledTs !== null && reprintAt <= asOf
        ? {
            orderId: Rng.mix(shop.idHash, STREAM.reprintId, order.index).hex(24),
            createdTs: reprintAt,
            status: reprintAt + 4 * DAY <= asOf ? 'fulfilled' : 'in-production',
            fulfilledTs: reprintAt + 4 * DAY <= asOf ? reprintAt + 4 * DAY : null,
          }
        : null,
    shopOrderIdAsText,
    split: planSplit(shop, order, kind),
  };
}

/**
 * About a third of the linked orders with two or more physical lines are fulfilled by two
 * Printify orders (their products come from different print providers), drawn from their own
 * stream so every other value stays as it was.
 */
function planSplit(shop: ShopProfile, order: OrderModel, kind: PrintifyPlan['kind']): PrintifyPlan['split'] {
  const physical = order.lines.filter((l) => !l.isDigital).length;
  if (kind !== 'linked' || physical < 2 || !Rng.mix(shop.seedHash, STREAM.split, order.index).chance(0.35)) return null;
  return {
    orderId: Rng.mix(shop.idHash, STREAM.splitId, order.index).hex(24),
    fromLine: Math.ceil(physical / 2),
  };
}

/** When the order went to production: never while on hold, nor after it was canceled. */
function sentToProduction(status: string, sentTs: number, canceledTs: number | null): number | null {
  if (status === 'on-hold') return null;
  if (status === 'canceled' && canceledTs !== null && sentTs > canceledTs) return null;
  return sentTs;
}
