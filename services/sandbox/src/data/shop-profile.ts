import { CATALOG, type ProductSpec, type ShopCurrency, type VariantSpec } from './catalog';
import { SHOP_COUNTRY } from './geography';
import { hash32, Rng } from '../core/random';

export interface ListingVariant {
  spec: VariantSpec;
  /** Etsy listing inventory product id. */
  productId: number;
  /** The variant SKU Printify pushes to the Etsy listing. */
  sku: string;
  printifyVariantId: number;
}

export interface Listing {
  index: number;
  spec: ProductSpec;
  listingId: number;
  imageId: number;
  shippingProfileId: number;
  printifyProductId: string;
  variants: ListingVariant[];
}

/** Everything about one generated seller that does not depend on a particular order. */
export interface ShopProfile {
  seed: string;
  /** hash32(seed), the root of every per-order stream (see Rng.mix). */
  seedHash: number;
  /** hash32(seed, ordinal): the root of generated ids (Printify order ids), unique per tenant. */
  idHash: number;
  listingsByKind: Map<string, Listing[]>;
  /** The listing currency: receipts, transactions and payments are in it. */
  currency: ShopCurrency;
  /**
   * The payment account's currency (the seller's bank country): the ledger is in it. When it
   * differs from the listing currency, every ledger entry is converted at the day's ECB rate
   * and each sale pays the 2.5 % currency-conversion fee (integrations.md a.8).
   */
  paymentCurrency: ShopCurrency;
  /** The seller's country (of the payment account): it sets the processing, regulatory and VAT-on-fees rates. */
  country: string;
  /**
   * A VAT-registered seller: the VAT inside its prices is owed to the tax office, and it reclaims
   * the VAT Etsy charges on fees. Nothing in Etsy's API says so; the tenant's answer does, for tests.
   */
  vatRegistered: boolean;
  userId: number;
  shopId: number;
  shopName: string;
  loginName: string;
  sellerEmail: string;
  shopCreatedTs: number;
  receiptBase: number;
  transactionBase: number;
  paymentBase: number;
  adjustmentBase: number;
  ledgerId: number;
  ledgerEntryBase: number;
  printifyAccountNo: number;
  listings: Listing[];
  /**
   * The seller's Etsy sales over the 365 days before now, whole USD: it sets the Offsite Ads rate
   * (integrations.md a.8). Drawn per shop (about 45% at or above USD 10k) unless the tenant names it.
   */
  salesLast365Usd: number;
}

const NAME_A = [
  'Happy',
  'Cozy',
  'Little',
  'Wild',
  'Golden',
  'Velvet',
  'Sunny',
  'Moss',
  'Paper',
  'Lucky',
  'Maple',
  'Indigo',
];
const NAME_B = ['Threads', 'Print Co', 'Studio', 'Goods', 'Designs', 'Makery', 'Press', 'Prints', 'Apparel', 'Atelier'];

/**
 * The content comes from `seed`; the ids come from `ordinal` (the tenant's number in this
 * sandbox), in disjoint blocks, so two tenants never share a user, shop, receipt or payment id.
 */
export interface SellerOptions {
  /** The payment account's currency (default: the listing currency). */
  paymentCurrency?: ShopCurrency;
  vatRegistered?: boolean;
  salesLast365Usd?: number;
}

export function buildShopProfile(
  seed: string,
  currency: ShopCurrency,
  asOf: number,
  ordinal: number,
  seller: SellerOptions = {},
): ShopProfile {
  const paymentCurrency = seller.paymentCurrency ?? currency;
  const rng = Rng.of(seed, 'shop');
  const ids = Rng.of(seed, 'ids', ordinal);
  const block = (base: number, size: number) => base + ordinal * size + ids.int(0, Math.floor(size / 50));
  const shopName = `${rng.pick(NAME_A)}${rng.pick(NAME_B).replace(/ /g, '')}${rng.int(10, 99)}`;
  const userId = block(60_000_000, 100_000);
  const listings = CATALOG.map((spec, index): Listing => {
    const lr = Rng.of(seed, 'listing', spec.key);
    return {
      index,
      spec,
      listingId: lr.int(1_000_000_000, 1_899_999_999),
      imageId: lr.int(4_000_000_000, 6_999_999_999),
      shippingProfileId: lr.int(100_000_000_000, 299_999_999_999),
      printifyProductId: lr.hex(24),
      variants: spec.variants.map((variant, v) => ({
        spec: variant,
        productId: lr.int(10_000_000_000, 29_999_999_999),
        sku:
          spec.kind === 'digital'
            ? ''
            : `${lr.int(10_000, 99_999)}${lr.int(10_000_000, 99_999_999)}${String(v).padStart(2, '0')}${lr.int(100, 999)}`,
        printifyVariantId: spec.kind === 'digital' ? 0 : lr.int(10_000, 120_000),
      })),
    };
  });
  const listingsByKind = new Map<string, Listing[]>();
  for (const listing of listings)
    listingsByKind.set(listing.spec.kind, [...(listingsByKind.get(listing.spec.kind) ?? []), listing]);
  return {
    seed,
    seedHash: hash32(seed),
    idHash: hash32(seed, ordinal),
    listingsByKind,
    currency,
    paymentCurrency,
    country: SHOP_COUNTRY[paymentCurrency],
    vatRegistered: seller.vatRegistered ?? false,
    userId,
    shopId: block(20_000_000, 100_000),
    shopName,
    loginName: `${shopName.toLowerCase()}${rng.int(1, 9)}`,
    sellerEmail: `${shopName.toLowerCase()}@example.com`,
    shopCreatedTs: asOf - rng.int(400, 2500) * 86_400,
    // Blocks sized for a million orders per tenant (37 receipt ids, 8 transaction ids, ~20 ledger entries each).
    receiptBase: block(3_000_000_000, 40_000_000),
    transactionBase: block(4_000_000_000, 10_000_000),
    paymentBase: block(1_000_000_000_000, 2_000_000),
    adjustmentBase: block(500_000_000, 2_000_000),
    ledgerId: block(10_000_000, 10_000),
    ledgerEntryBase: block(20_000_000_000, 30_000_000),
    printifyAccountNo: block(100_000, 10),
    listings,
    salesLast365Usd: seller.salesLast365Usd ?? drawSalesLast365Usd(seed),
  };
}

/** A stream of its own, so the shop's other values stay as they were before the standing existed. */
function drawSalesLast365Usd(seed: string): number {
  const rng = Rng.of(seed, 'sales-last-365');
  return rng.chance(0.45) ? rng.int(10_000, 90_000) : rng.int(500, 9_999);
}
