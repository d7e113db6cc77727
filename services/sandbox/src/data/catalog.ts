/**
 * The print-on-demand catalogue the generated shops sell. Retail prices are per shop currency
 * (minor units); Printify base and shipping costs are USD cents, roughly what Printify charges
 * for such products. Titles deliberately contain quotes, apostrophes and ampersands: Etsy
 * returns them HTML-escaped, Printify does not.
 */
export type ShopCurrency = 'USD' | 'EUR' | 'GBP';
export type ProductKind =
  'tee' | 'hoodie' | 'sweatshirt' | 'mug' | 'poster' | 'tote' | 'phone-case' | 'sticker' | 'digital';

export interface VariantSpec {
  label: string;
  /** Retail unit price per shop currency, minor units. */
  retail: Record<ShopCurrency, number>;
  /** Printify production cost per unit, USD cents (undefined for digital items). */
  baseCostUsd?: number;
}

export interface ProductSpec {
  key: string;
  kind: ProductKind;
  title: string;
  variants: VariantSpec[];
  /** Printify shipping, USD cents: first unit and each additional unit, domestic (US) and abroad. */
  printifyShipping?: { first: number; additional: number; firstAbroad: number; additionalAbroad: number };
  /** What the shop charges the buyer for shipping, per shop currency, first and additional unit. */
  etsyShipping: Record<ShopCurrency, { first: number; additional: number }>;
  printProviderId?: number;
  fileData?: string;
}

const money = (usd: number, eur: number, gbp: number): Record<ShopCurrency, number> => ({
  USD: usd,
  EUR: eur,
  GBP: gbp,
});
const ship = (usd: [number, number], eur: [number, number], gbp: [number, number]) => ({
  USD: { first: usd[0], additional: usd[1] },
  EUR: { first: eur[0], additional: eur[1] },
  GBP: { first: gbp[0], additional: gbp[1] },
});

function apparel(
  sizes: string[],
  colors: string[],
  retail: [number, number, number],
  bigRetail: [number, number, number],
  cost: number,
  bigCost: number,
): VariantSpec[] {
  const out: VariantSpec[] = [];
  for (const color of colors) {
    for (const size of sizes) {
      const big = size === '2XL' || size === '3XL';
      const [usd, eur, gbp] = big ? bigRetail : retail;
      out.push({ label: `${color} / ${size}`, retail: money(usd, eur, gbp), baseCostUsd: big ? bigCost : cost });
    }
  }
  return out;
}

const SIZES = ['S', 'M', 'L', 'XL', '2XL'];
const TEE_SHIP = { first: 475, additional: 240, firstAbroad: 1050, additionalAbroad: 400 };
const HOODIE_SHIP = { first: 849, additional: 250, firstAbroad: 1499, additionalAbroad: 600 };
const MUG_SHIP = { first: 699, additional: 350, firstAbroad: 1299, additionalAbroad: 650 };
const POSTER_SHIP = { first: 599, additional: 150, firstAbroad: 1199, additionalAbroad: 300 };
const SMALL_SHIP = { first: 449, additional: 150, firstAbroad: 899, additionalAbroad: 250 };
const STICKER_SHIP = { first: 199, additional: 99, firstAbroad: 499, additionalAbroad: 99 };

export const CATALOG: readonly ProductSpec[] = [
  {
    key: 'tee-cat-mom',
    kind: 'tee',
    title: '"Cat Mom" Retro Sunset T-Shirt',
    printProviderId: 99,
    variants: apparel(SIZES, ['Black', 'White', 'Heather Grey'], [2499, 2399, 1999], [2699, 2599, 2199], 1129, 1389),
    printifyShipping: TEE_SHIP,
    etsyShipping: ship([499, 199], [599, 249], [399, 149]),
  },
  {
    key: 'tee-plant-lady',
    kind: 'tee',
    title: "Plant Lady's Club Unisex Tee",
    printProviderId: 29,
    variants: apparel(SIZES, ['Sage', 'Natural'], [2699, 2599, 2199], [2899, 2799, 2399], 1189, 1449),
    printifyShipping: TEE_SHIP,
    etsyShipping: ship([499, 199], [599, 249], [399, 149]),
  },
  {
    key: 'hoodie-coffee-books',
    kind: 'hoodie',
    title: 'Coffee & Books Crewneck Hoodie',
    printProviderId: 99,
    variants: apparel(SIZES, ['Navy', 'Sand'], [4499, 4299, 3799], [4799, 4599, 3999], 2149, 2489),
    printifyShipping: HOODIE_SHIP,
    etsyShipping: ship([799, 299], [899, 349], [699, 249]),
  },
  {
    key: 'sweat-mushroom',
    kind: 'sweatshirt',
    title: "Retro 70's Mushroom Sweatshirt",
    printProviderId: 39,
    variants: apparel(SIZES, ['Forest Green', 'Maroon'], [3999, 3799, 3299], [4199, 3999, 3499], 1749, 2049),
    printifyShipping: HOODIE_SHIP,
    etsyShipping: ship([699, 249], [799, 299], [599, 199]),
  },
  {
    key: 'mug-okayest',
    kind: 'mug',
    title: "World's Okayest Runner Mug",
    printProviderId: 1,
    variants: [
      { label: '11oz', retail: money(1799, 1699, 1499), baseCostUsd: 548 },
      { label: '15oz', retail: money(2099, 1999, 1699), baseCostUsd: 681 },
    ],
    printifyShipping: MUG_SHIP,
    etsyShipping: ship([599, 299], [699, 349], [499, 249]),
  },
  {
    key: 'mug-teacher',
    kind: 'mug',
    title: '"Teacher Life" Coffee Mug 15oz',
    printProviderId: 28,
    variants: [
      { label: '15oz / White', retail: money(2199, 2099, 1799), baseCostUsd: 702 },
      { label: '15oz / Black', retail: money(2299, 2199, 1899), baseCostUsd: 749 },
    ],
    printifyShipping: MUG_SHIP,
    etsyShipping: ship([599, 299], [699, 349], [499, 249]),
  },
  {
    key: 'poster-salt-pepper',
    kind: 'poster',
    title: 'Salt & Pepper Kitchen Poster',
    printProviderId: 2,
    variants: [
      { label: '12″ x 18″', retail: money(2299, 2199, 1899), baseCostUsd: 825 },
      { label: '18″ x 24″', retail: money(2999, 2799, 2499), baseCostUsd: 1105 },
      { label: '24″ x 36″', retail: money(3999, 3799, 3299), baseCostUsd: 1545 },
    ],
    printifyShipping: POSTER_SHIP,
    etsyShipping: ship([499, 149], [599, 199], [399, 149]),
  },
  {
    key: 'poster-moon',
    kind: 'poster',
    title: 'Moon Phases Astronomy Print <Matte>',
    printProviderId: 2,
    variants: [
      { label: '11″ x 14″', retail: money(1999, 1899, 1699), baseCostUsd: 745 },
      { label: '16″ x 20″', retail: money(2799, 2599, 2299), baseCostUsd: 1019 },
    ],
    printifyShipping: POSTER_SHIP,
    etsyShipping: ship([499, 149], [599, 199], [399, 149]),
  },
  {
    key: 'tote-bookish',
    kind: 'tote',
    title: "Bookish Tote Bag – It's a Good Day to Read",
    printProviderId: 26,
    variants: [{ label: 'Natural / 15″ x 16″', retail: money(2799, 2599, 2299), baseCostUsd: 1299 }],
    printifyShipping: SMALL_SHIP,
    etsyShipping: ship([449, 149], [549, 199], [349, 149]),
  },
  {
    key: 'case-floral',
    kind: 'phone-case',
    title: 'Floral Phone Case for iPhone & Galaxy',
    printProviderId: 45,
    variants: ['iPhone 15', 'iPhone 15 Pro', 'iPhone 16', 'Galaxy S24'].map((model) => ({
      label: `${model} / Glossy`,
      retail: money(2499, 2399, 1999),
      baseCostUsd: 899,
    })),
    printifyShipping: SMALL_SHIP,
    etsyShipping: ship([399, 99], [499, 149], [349, 99]),
  },
  {
    key: 'sticker-dog-dad',
    kind: 'sticker',
    title: 'Dog Dad Kiss-Cut Vinyl Sticker',
    printProviderId: 36,
    variants: [
      { label: '3″ × 3″', retail: money(499, 449, 399), baseCostUsd: 179 },
      { label: '4″ × 4″', retail: money(599, 549, 499), baseCostUsd: 219 },
    ],
    printifyShipping: STICKER_SHIP,
    etsyShipping: ship([199, 49], [249, 99], [149, 49]),
  },
  {
    key: 'digital-wall-art',
    kind: 'digital',
    title: 'Printable Wall Art Set – 3 PNG Files',
    fileData: '3 PNG',
    variants: [{ label: 'Digital download', retail: money(599, 549, 499) }],
    etsyShipping: ship([0, 0], [0, 0], [0, 0]),
  },
  {
    key: 'digital-planner',
    kind: 'digital',
    title: '2026 Digital Planner "Calm" Edition',
    fileData: '1 PDF',
    variants: [{ label: 'Digital download', retail: money(899, 849, 749) }],
    etsyShipping: ship([0, 0], [0, 0], [0, 0]),
  },
];

/** How often each product sells, relative to the others. */
export const PRODUCT_WEIGHTS: Record<ProductKind, number> = {
  tee: 30,
  hoodie: 12,
  sweatshirt: 8,
  mug: 16,
  poster: 10,
  tote: 5,
  'phone-case': 6,
  sticker: 8,
  digital: 5,
};

export function escapeEtsyHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}
