import { createHash } from 'node:crypto';

/** What an upsert of a page did: rows new to us, and rows whose stored version changed. */
export interface UpsertCounts {
  added: number;
  changed: number;
  /** The keys of the rows inserted or changed (their child rows are replaced). */
  writtenKeys: string[];
}

/**
 * JSON for PostgreSQL's jsonb: U+0000 cannot be stored in jsonb or text, so it is dropped from
 * every string (a provider payload carrying one would otherwise fail its whole page forever).
 */
export function jsonForPostgres(value: unknown): string {
  // A replacer costs a call per value (seconds over 100k orders' figures). JSON.stringify writes
  // U+0000 as the escape \u0000, so text without that escape had none to drop: the plain answer
  // is then the very same text; only text that has it pays for the replacer.
  const plain: string | undefined = JSON.stringify(value);
  if (plain !== undefined && !plain.includes('\\u0000')) return plain;
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'string' && inner.includes('\u0000') ? inner.replaceAll('\u0000', '') : inner,
  );
}

/** A stable fingerprint of a payload as received: an unchanged record hashes the same on every fetch. */
export function payloadHash(payload: unknown): string {
  return createHash('sha256').update(jsonForPostgres(payload)).digest('base64url');
}

/**
 * The last row per key, sorted by key. A page can repeat a record (offsets shift while the
 * source changes); one INSERT … ON CONFLICT may touch a row once, and writing in key order
 * keeps concurrent writers of overlapping pages from deadlocking.
 */
export function lastPerKey<T>(rows: readonly T[], keyOf: (row: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const row of rows) byKey.set(keyOf(row), row);
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

export function countUpserts(rows: readonly { key: string; inserted: boolean }[]): UpsertCounts {
  let added = 0;
  for (const row of rows) if (row.inserted) added += 1;
  return { added, changed: rows.length - added, writtenKeys: rows.map((row) => row.key) };
}
