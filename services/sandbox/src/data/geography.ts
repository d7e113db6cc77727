import type { ShopCurrency } from './catalog';

/** Where buyers live, with the taxes Etsy collects there. Rates are plausible, not authoritative. */
export interface BuyerPlace {
  country: string;
  state: string | null;
  city: string;
  zip: string;
  /** Sales tax (US states, Australian GST) as a fraction, collected by Etsy. */
  salesTax: number;
  /** The VAT rate of the buyer's country (EU and UK) as a fraction; when Etsy collects it, see vatCollected. */
  vat: number;
}

const US_PLACES: Array<[string, string, string, number]> = [
  ['CA', 'Los Angeles', '900', 0.095],
  ['CA', 'San Diego', '921', 0.0775],
  ['NY', 'Brooklyn', '112', 0.08875],
  ['TX', 'Austin', '787', 0.0825],
  ['FL', 'Orlando', '328', 0.065],
  ['WA', 'Seattle', '981', 0.1035],
  ['IL', 'Chicago', '606', 0.1025],
  ['PA', 'Pittsburgh', '152', 0.07],
  ['OR', 'Portland', '972', 0],
  ['MA', 'Boston', '021', 0.0625],
  ['CO', 'Denver', '802', 0.0881],
  ['GA', 'Atlanta', '303', 0.089],
  ['NC', 'Raleigh', '276', 0.0725],
  ['OH', 'Columbus', '432', 0.0775],
  ['MN', 'Minneapolis', '554', 0.08025],
  ['DE', 'Wilmington', '198', 0],
];

const ABROAD: Record<
  string,
  { cities: string[]; zip: (n: number) => string; salesTax: number; vat: number; state?: string[] }
> = {
  CA: {
    cities: ['Toronto', 'Vancouver', 'Montréal'],
    zip: (n) => `M${n % 10}V ${n % 9}K${n % 7}`,
    salesTax: 0.13,
    vat: 0,
    state: ['ON', 'BC', 'QC'],
  },
  AU: {
    cities: ['Sydney', 'Melbourne', 'Brisbane'],
    zip: (n) => `${2000 + (n % 1999)}`,
    salesTax: 0.1,
    vat: 0,
    state: ['NSW', 'VIC', 'QLD'],
  },
  GB: {
    cities: ['London', 'Manchester', 'Bristol', 'Edinburgh'],
    zip: (n) => `SW${1 + (n % 19)} ${n % 10}AB`,
    salesTax: 0,
    vat: 0.2,
  },
  DE: { cities: ['Berlin', 'München', 'Köln'], zip: (n) => `${10000 + (n % 89999)}`, salesTax: 0, vat: 0.19 },
  FR: { cities: ['Paris', 'Lyon', 'Bordeaux'], zip: (n) => `${75000 + (n % 20)}`, salesTax: 0, vat: 0.2 },
  NL: { cities: ['Amsterdam', 'Utrecht'], zip: (n) => `${1000 + (n % 8999)} AB`, salesTax: 0, vat: 0.21 },
  IT: { cities: ['Milano', 'Roma'], zip: (n) => `${20100 + (n % 99)}`, salesTax: 0, vat: 0.22 },
  ES: { cities: ['Madrid', 'Barcelona'], zip: (n) => `${28000 + (n % 999)}`, salesTax: 0, vat: 0.21 },
  IE: { cities: ['Dublin', 'Cork'], zip: (n) => `D0${1 + (n % 8)} X${n % 10}Y${n % 9}`, salesTax: 0, vat: 0.23 },
  BE: { cities: ['Bruxelles', 'Antwerpen'], zip: (n) => `${1000 + (n % 8999)}`, salesTax: 0, vat: 0.21 },
};

export const SHOP_COUNTRY: Record<ShopCurrency, string> = { USD: 'US', EUR: 'FR', GBP: 'GB' };

const EU = new Set(['FR', 'DE', 'NL', 'IT', 'ES', 'IE', 'BE']);

/** The VAT area a country belongs to: the EU, the UK, or none (VAT does not apply). */
export function vatArea(country: string): 'EU' | 'GB' | null {
  if (EU.has(country)) return 'EU';
  return country === 'GB' ? 'GB' : null;
}

const BUYER_COUNTRIES: Record<ShopCurrency, ReadonlyArray<readonly [string, number]>> = {
  USD: [
    ['US', 80],
    ['CA', 6],
    ['GB', 5],
    ['AU', 4],
    ['DE', 3],
    ['FR', 2],
  ],
  EUR: [
    ['FR', 40],
    ['DE', 15],
    ['NL', 6],
    ['IT', 5],
    ['ES', 5],
    ['BE', 4],
    ['IE', 2],
    ['GB', 8],
    ['US', 13],
    ['CA', 2],
  ],
  GBP: [
    ['GB', 70],
    ['IE', 4],
    ['DE', 5],
    ['FR', 4],
    ['NL', 2],
    ['US', 11],
    ['AU', 2],
    ['CA', 2],
  ],
};

export function buyerCountries(currency: ShopCurrency): ReadonlyArray<readonly [string, number]> {
  return BUYER_COUNTRIES[currency];
}

export function placeIn(country: string, roll: number): BuyerPlace {
  if (country === 'US') {
    const [state, city, zip3, tax] = US_PLACES[roll % US_PLACES.length];
    return { country, state, city, zip: `${zip3}${String(roll % 100).padStart(2, '0')}`, salesTax: tax, vat: 0 };
  }
  const spec = ABROAD[country];
  const which = roll % spec.cities.length;
  return {
    country,
    state: spec.state ? spec.state[which] : null,
    city: spec.cities[which],
    zip: spec.zip(roll),
    salesTax: spec.salesTax,
    vat: spec.vat,
  };
}

export const FIRST_NAMES = [
  'Emma',
  'Olivia',
  'Ava',
  'Mia',
  'Sophia',
  'Isabella',
  'Amelia',
  'Harper',
  'Zoë',
  'Chloé',
  'Noah',
  'Liam',
  'Lucas',
  'Ethan',
  'Mateo',
  'James',
  'Oliver',
  'José',
  'Jürgen',
  'Aoife',
  'Siobhan',
  'Priya',
  'Aarav',
  'Mei',
  'Hannah',
  'Grace',
  'Ruby',
  'Léa',
  'Lukas',
  'Sofia',
];
export const LAST_NAMES = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Garcia',
  'Miller',
  'Davis',
  'Martínez',
  'Taylor',
  'Anderson',
  'Thomas',
  'Moore',
  'Martin',
  'Lee',
  'Walker',
  'Hall',
  'Young',
  "O'Brien",
  'Müller',
  'Schmidt',
  'Dubois',
  'Rossi',
  'Kowalski',
  'Nguyen',
  'Patel',
  'Kim',
  'Murphy',
  'van Dijk',
  'Fernández',
  'Jensen',
];
export const STREETS = [
  'Maple Street',
  'Oak Avenue',
  'Cedar Lane',
  'Elm Road',
  'Pine Court',
  'Birch Way',
  'High Street',
  'Station Road',
  'Park Lane',
  'Rue de la Paix',
  'Hauptstraße',
  'Church Street',
];
export const CARRIERS: Record<string, string[]> = {
  US: ['usps', 'ups', 'fedex'],
  GB: ['royal-mail', 'dpd'],
  CA: ['canada-post'],
  AU: ['australia-post'],
  default: ['dhl', 'postnl', 'la-poste'],
};
