import type { Client } from 'pg';
import type { DataSource } from 'typeorm';

/** One table's rows: how many, and a hash of their contents. */
export interface TableFingerprint {
  rows: number;
  hash: string;
}

/** Every entity table's fingerprint, by table name. */
export type DataFingerprint = Record<string, TableFingerprint>;

/** The tables TypeORM maps (entities and their junction tables), in name order. */
export function entityTables(dataSource: DataSource): string[] {
  return [...new Set(dataSource.entityMetadatas.map((metadata) => metadata.tableName))].sort();
}

/**
 * Each table's row count and a hash of every row over the named columns (each row's md5 of its
 * columns in name order as text, the first 60 bits as a number, summed). A sum, not
 * md5(string_agg(…)): the aggregate needs no sort, and a million rows of JSON payloads would
 * pass the 1 GB limit of one text value. Whole rows: a value changed, lost or moved to another
 * row changes the sum (barring a collision of 60-bit hashes).
 */
export async function fingerprintData(
  client: Client,
  columnsByTable: Record<string, readonly string[]>,
): Promise<DataFingerprint> {
  const fingerprint: DataFingerprint = {};
  for (const [table, columns] of Object.entries(columnsByTable)) {
    const row = `ROW(${columns.map((column) => `t."${column}"`).join(', ')})::text`;
    const { rows } = await client.query<{ rows: string; hash: string | null }>(
      `SELECT count(*) AS rows, sum(('x' || substr(md5(${row}), 1, 15))::bit(60)::bigint)::text AS hash FROM "${table}" t`,
    );
    fingerprint[table] = { rows: Number(rows[0].rows), hash: rows[0].hash ?? '0' };
  }
  return fingerprint;
}

/** The columns of these tables now, in name order (so a column dropped and added again hashes alike). */
export async function columnsOf(client: Client, tables: readonly string[]): Promise<Record<string, string[]>> {
  const { rows } = await client.query<{ table_name: string; columns: string[] }>(
    `SELECT table_name, array_agg(column_name::text ORDER BY column_name) AS columns
     FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ANY($1) GROUP BY table_name`,
    [tables],
  );
  const missing = tables.filter((table) => !rows.some((row) => row.table_name === table));
  if (missing.length) throw new Error(`no such tables: ${missing.join(', ')}`);
  return Object.fromEntries(rows.map((row) => [row.table_name, row.columns]));
}

/** The tables whose count or hash differ between two fingerprints (a table in one only counts). */
export function differingTables(before: DataFingerprint, after: DataFingerprint): string[] {
  const tables = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return tables.filter(
    (table) => before[table]?.rows !== after[table]?.rows || before[table]?.hash !== after[table]?.hash,
  );
}
