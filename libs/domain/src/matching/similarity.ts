import { daysBetweenInstants } from '../calendar';
import type { MatchLine } from './types';

/**
 * Text normalisation and similarity measures for fuzzy matching. Names and titles differ
 * between Etsy and Printify in case, accents, punctuation and word order ("Zoë O'Neil" vs
 * "ONEIL ZOE"), so both are compared as sets of normalised words.
 */
export function normalizeText(text: string | null | undefined): string {
  if (!text) return '';
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function wordsOf(text: string | null | undefined): string[] {
  const normalized = normalizeText(text);
  return normalized === '' ? [] : [...new Set(normalized.split(' '))].sort();
}

/** A blocking key for names: the sorted distinct words, so word order does not matter. */
export function nameKey(name: string | null | undefined): string {
  return wordsOf(name).join(' ');
}

export function normalizeSku(sku: string | null | undefined): string {
  return (sku ?? '').trim().toUpperCase();
}

/** |A ∩ B| / |A ∪ B| of two sorted distinct word lists; 0 when either is empty. */
export function jaccard(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const setB = new Set(b);
  let shared = 0;
  for (const word of a) if (setB.has(word)) shared += 1;
  return shared / (a.length + b.length - shared);
}

/** 1 for the same buyer however written; word overlap otherwise; null when a side has no name. */
export function nameSimilarity(a: string | null, b: string | null): number | null {
  const wordsA = wordsOf(a);
  const wordsB = wordsOf(b);
  if (wordsA.length === 0 || wordsB.length === 0) return null;
  return jaccard(wordsA, wordsB);
}

/**
 * How plausible the Printify order's time is for the receipt: Printify imports an Etsy order
 * minutes to hours after it is placed, so 1 from a day before (clock skew) to two days after,
 * falling to 0 at `maxDaysAfter`; 0 outside the window.
 */
export function dateProximity(receiptAt: Date, orderAt: Date, maxDaysBefore: number, maxDaysAfter: number): number {
  const days = daysBetweenInstants(receiptAt, orderAt);
  if (days < -maxDaysBefore || days > maxDaysAfter) return 0;
  if (days <= 2) return 1;
  return Math.max(0, (maxDaysAfter - days) / (maxDaysAfter - 2));
}

/**
 * How alike two orders' line items are: SKUs where both sides have them (Printify pushes its
 * variant SKUs to the Etsy listing), titles always, and a penalty when the total quantities differ.
 */
export function linesSimilarity(a: readonly MatchLine[], b: readonly MatchLine[]): number {
  const skusA = distinct(a.map((line) => normalizeSku(line.sku)).filter(Boolean));
  const skusB = distinct(b.map((line) => normalizeSku(line.sku)).filter(Boolean));
  const titles = jaccard(
    distinct(a.flatMap((line) => wordsOf(line.title))),
    distinct(b.flatMap((line) => wordsOf(line.title))),
  );
  const items = skusA.length > 0 && skusB.length > 0 ? 0.6 * jaccard(skusA, skusB) + 0.4 * titles : titles;
  const quantity = (lines: readonly MatchLine[]) => lines.reduce((sum, line) => sum + line.quantity, 0);
  return quantity(a) === quantity(b) ? items : items * 0.75;
}

function distinct(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}
