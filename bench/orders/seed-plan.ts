import type { SeedSizes } from './config';

/**
 * The generated sellers and orders, as temporary tables the inserts into the real tables read
 * (seed-tables.ts). Every random choice is made once here, so a receipt and its Printify order
 * agree on buyer, products and date.
 *
 * - seed_user: user 0 is the big seller (two Etsy shops, USD and EUR, one Printify shop); the
 *   others have one Etsy shop each (USD 70 %, EUR 15 %, GBP 10 %, CAD 5 %). Busy sellers are
 *   fewer than quiet ones: an order's seller is drawn from random()², so counts are skewed.
 * - seed_order: one row per receipt (and its Printify order), plus the big seller's lone
 *   Printify orders. `kind` decides how the sides relate, by n mod 200: 0 a receipt with no
 *   Printify order, 1 a pair whose Printify order names the buyer differently (fuzzy, pending),
 *   2–7 a pair whose Printify order does not name the receipt (fuzzy, matched), else exact
 *   (metadata.shop_order_id = receipt id). The big seller's lone Printify orders (n > its
 *   receipts) make its Printify orders as many as its receipts.
 * - seed_line: 1 line (75 %), 2 (20 %) or 3; a catalog of designs × products with their SKUs,
 *   Etsy listing titles and Printify product titles; quantity 2 on 10 % of first lines.
 */
const FIRST_NAMES = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Amelia',
  'Oliver',
  'Ava',
  'Elijah',
  'Sophia',
  'Mateo',
  'Isabella',
  'Lucas',
  'Mia',
  'Levi',
  'Evelyn',
  'James',
  'Harper',
  'Asher',
  'Luna',
  'Henry',
  'Camila',
  'Leo',
  'Gianna',
  'Jack',
  'Elizabeth',
  'Ezra',
  'Eleanor',
  'Theodore',
  'Ella',
  'Hudson',
  'Abigail',
  'Kai',
  'Sofia',
  'Ethan',
  'Avery',
  'Zoë',
  'Mason',
  'Scarlett',
  'Aiden',
  'Emily',
  'Chloé',
  'Sebastian',
  'Aria',
  'Jonas',
  'Léa',
  'Matteo',
  'Freya',
  'Finn',
  'Ingrid',
  'Søren',
  'Hannah',
  'Maximilian',
  'Marie',
  'Paul',
  'Clara',
  'Felix',
  'Nora',
];
const LAST_NAMES = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
  'Green',
  'Adams',
  'Nelson',
  'Baker',
  'Hall',
  'Rivera',
  'Campbell',
  'Mitchell',
  'Carter',
  'Roberts',
  "O'Neil",
  'Müller',
  'Schmidt',
  'Schneider',
  'Fischer',
  'Weber',
  'Dubois',
  'Lefèvre',
  'Rossi',
  'Russo',
  'Jensen',
  'Nielsen',
  'Hansen',
  'Kowalski',
  'Nowak',
  'Novák',
  'Silva',
  'Santos',
  'Costa',
  'Murphy',
  'Kelly',
  'Walsh',
  'Byrne',
  'Evans',
  'Hughes',
  'Price',
];
const DESIGNS = [
  'Retro Cat',
  'Sunset Mountains',
  'Funny Dad Joke',
  'Floral Wreath',
  'Coffee First',
  'Vintage Camper',
  'Cute Axolotl',
  'Book Lover',
  'Plant Mom',
  'Minimalist Wave',
  'Halloween Ghost',
  'Christmas Gnome',
  'Dog Mom',
  'Teacher Life',
  'Nurse Life',
  'Gamer Mode',
  'Boho Rainbow',
  'Mushroom Forest',
  'Frog Prince',
  'Space Astronaut',
  'Taco Tuesday',
  'Yoga Vibes',
  'Fishing Dad',
  'Bee Kind',
  'Custom Name',
  'Pet Portrait',
  'Wedding Date',
  'Bride Squad',
  'Skeleton Hand',
  'Moon Phases',
  'Cottagecore Frog',
  'Lake Life',
];
/** name, SKU code, Etsy price (minor units, shop currency), Printify cost (USD cents), variant. */
const PRODUCTS: [string, string, number, number, string][] = [
  ['Coffee Mug 11oz', 'MUG11', 1899, 745, 'White / 11oz'],
  ['Coffee Mug 15oz', 'MUG15', 2199, 912, 'White / 15oz'],
  ['Unisex Heavy Cotton Tee', 'TEE', 2499, 1029, 'Black / L'],
  ['Unisex Softstyle T-Shirt', 'SOFT', 2699, 1185, 'Heather Grey / M'],
  ['Heavy Blend Hoodie', 'HOOD', 4499, 2397, 'Navy / XL'],
  ['Crewneck Sweatshirt', 'CREW', 3999, 1890, 'Sand / M'],
  ['Canvas Tote Bag', 'TOTE', 1999, 1104, 'Natural'],
  ['Matte Poster 12x18', 'POST1218', 1599, 689, '12″ × 18″'],
  ['Matte Poster 18x24', 'POST1824', 2299, 973, '18″ × 24″'],
  ['Kiss-Cut Stickers', 'STICK', 499, 182, '3″ × 3″'],
  ['Spiral Notebook', 'NOTE', 1699, 865, 'Ruled Line'],
  ['Phone Case', 'CASE', 2299, 1043, 'iPhone 15'],
  ['Ceramic Ornament', 'ORN', 1499, 571, 'Circle'],
  ['Throw Pillow 18x18', 'PILLOW', 3299, 1566, '18″ × 18″'],
  ['Baby Bodysuit', 'BABY', 2199, 958, 'White / 6M'],
  ['Embroidered Dad Hat', 'HAT', 2799, 1350, 'Khaki'],
];

const sqlText = (values: readonly string[]) =>
  `ARRAY[${values.map((value) => `'${value.replace(/'/g, "''")}'`).join(', ')}]::text[]`;
const sqlInts = (values: readonly number[]) => `ARRAY[${values.join(', ')}]::bigint[]`;

/** The statements that fill seed_user, seed_order and seed_line for these sizes, in order. */
export function seedPlanStatements(sizes: SeedSizes, now: Date): string[] {
  const big = sizes.bigUserOrders;
  const loneOrders = Math.floor(big / 200);
  const nowSql = `'${now.toISOString()}'::timestamptz`;
  const currencyOf = `CASE WHEN u % 20 < 14 THEN 'USD' WHEN u % 20 < 17 THEN 'EUR' WHEN u % 20 < 19 THEN 'GBP' ELSE 'CAD' END`;
  const countryOf = (currency: string) =>
    `CASE ${currency} WHEN 'USD' THEN 'US' WHEN 'EUR' THEN (ARRAY['DE','FR','NL','IT','ES'])[1 + (u % 5)] WHEN 'GBP' THEN 'GB' ELSE 'CA' END`;
  return [
    `SELECT setseed(0.42)`,
    `CREATE TEMP TABLE seed_user AS
     SELECT u AS user_no, gen_random_uuid() AS user_id, (42000000 + 2 * u)::text AS etsy_shop, (9100000 + u)::text AS pfy_shop,
       ${currencyOf} AS currency, ${countryOf(currencyOf)} AS country
     FROM generate_series(0, ${sizes.otherUsers}) u`,
    `UPDATE seed_user SET currency = 'USD', country = 'US' WHERE user_no = 0`,
    `CREATE TEMP TABLE seed_order AS
     WITH base AS (
       SELECT n, n AS g, 0 AS user_no FROM generate_series(1, ${big + loneOrders}) n
       UNION ALL
       SELECT n, ${big + loneOrders} + n, 1 + floor(power(random(), 2) * ${sizes.otherUsers})::int FROM generate_series(1, ${sizes.otherOrders}) n
     ), drawn AS (
       SELECT b.*, random() AS r_date, random() AS r_lines, random() AS r_misc, random() AS r_refund,
         floor(random() * ${FIRST_NAMES.length})::int AS first_no, floor(random() * ${LAST_NAMES.length})::int AS last_no,
         floor(power(random(), 1.5) * ${DESIGNS.length})::int AS design_no, floor(random() * ${PRODUCTS.length})::int AS product_no
       FROM base b
     )
     SELECT d.g, d.user_no, s.user_id,
       CASE WHEN d.user_no = 0 AND d.n % 4 = 3 THEN (42000000 + 1)::text ELSE s.etsy_shop END AS etsy_shop,
       CASE WHEN d.user_no = 0 AND d.n % 4 = 3 THEN 'EUR' ELSE s.currency END AS currency,
       CASE WHEN d.user_no = 0 AND d.n % 4 = 3 THEN 'DE' ELSE s.country END AS seller_country,
       s.pfy_shop,
       CASE WHEN d.user_no = 0 AND d.n > ${big} THEN 'lone_order' WHEN d.n % 200 = 0 THEN 'lone_receipt' WHEN d.n % 200 = 1 THEN 'pending'
            WHEN d.n % 200 BETWEEN 2 AND 7 THEN 'fuzzy' ELSE 'exact' END AS kind,
       (3100000000 + d.g)::text AS receipt_id,
       substr(md5('printify-order-' || d.g), 1, 24) AS order_id,
       (7100000000 + d.g)::text AS payment_id,
       (${sqlText(FIRST_NAMES)})[1 + d.first_no] AS first_name,
       (${sqlText(LAST_NAMES)})[1 + d.last_no] AS last_name,
       date_trunc('second', ${nowSql} - d.r_date * interval '730 days') AS ordered_at,
       CASE WHEN d.r_lines < 0.75 THEN 1 WHEN d.r_lines < 0.95 THEN 2 ELSE 3 END AS line_count,
       CASE WHEN d.r_misc < 0.10 THEN 2 ELSE 1 END AS first_quantity,
       d.r_misc < 0.30 AS free_shipping, d.r_misc BETWEEN 0.40 AND 0.50 AS discounted, d.r_misc > 0.96 AS offsite_ads,
       CASE WHEN d.r_refund < 0.01 THEN 'full' WHEN d.r_refund < 0.025 THEN 'partial' ELSE 'none' END AS refund,
       d.design_no, d.product_no
     FROM drawn d JOIN seed_user s USING (user_no)`,
    `CREATE TEMP TABLE seed_line AS
     SELECT o.g, k AS line_no, (5100000000 + o.g * 4 + k)::text AS transaction_id,
       (o.design_no + 7 * (k - 1)) % ${DESIGNS.length} AS design_no, (o.product_no + 3 * (k - 1)) % ${PRODUCTS.length} AS product_no,
       CASE WHEN k = 1 THEN o.first_quantity ELSE 1 END AS quantity
     FROM seed_order o CROSS JOIN LATERAL generate_series(1, o.line_count) k`,
    `ALTER TABLE seed_line ADD COLUMN design text, ADD COLUMN product text, ADD COLUMN sku text, ADD COLUMN variant text,
       ADD COLUMN unit_price bigint, ADD COLUMN unit_cost bigint`,
    `UPDATE seed_line SET design = (${sqlText(DESIGNS)})[1 + design_no], product = (${sqlText(PRODUCTS.map((p) => p[0]))})[1 + product_no],
       sku = (${sqlText(PRODUCTS.map((p) => p[1]))})[1 + product_no] || '-' || lpad((design_no + 1)::text, 3, '0'),
       variant = (${sqlText(PRODUCTS.map((p) => p[4]))})[1 + product_no],
       unit_price = (${sqlInts(PRODUCTS.map((p) => p[2]))})[1 + product_no] + 100 * (design_no % 3),
       unit_cost = (${sqlInts(PRODUCTS.map((p) => p[3]))})[1 + product_no]`,
    `CREATE INDEX ON seed_line (g)`,
    `CREATE TEMP TABLE seed_totals AS
     SELECT g, sum(unit_price * quantity)::bigint AS total_price, sum(quantity)::int AS items, sum(unit_cost * quantity)::bigint AS cost,
       (450 + 150 * (count(*) - 1))::bigint AS printify_shipping
     FROM seed_line GROUP BY g`,
    `CREATE INDEX ON seed_order (g)`,
    `CREATE INDEX ON seed_totals (g)`,
    `ANALYZE seed_user`,
    `ANALYZE seed_order`,
    `ANALYZE seed_line`,
    `ANALYZE seed_totals`,
  ];
}
