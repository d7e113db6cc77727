import type { EntityManager } from 'typeorm';
import { preparedQuery } from './prepared-query';

/**
 * One read as data: its SQL text (parameters $1…$n), its values, and how its rows become the
 * caller's value. The same read runs alone (runRead) or as one part of a single statement with
 * others (readsAsOne), with the same text and the same parse either way.
 */
export interface SqlRead<T> {
  text: string;
  values: unknown[];
  /** 'row': at most one row; 'rows': any number. */
  shape: 'row' | 'rows';
  parse(rows: Record<string, unknown>[]): T;
}

type ReadValues<Reads> = { [Key in keyof Reads]: Reads[Key] extends SqlRead<infer T> ? T : never };

/** Runs the read as a prepared statement inside the caller's transaction (preparedQuery). */
export async function runRead<T>(manager: EntityManager, read: SqlRead<T>): Promise<T> {
  return read.parse(await preparedQuery<Record<string, unknown>>(manager, read.text, read.values));
}

/**
 * Several reads as one statement: each a scalar subquery turned into JSON (its row, or its rows as
 * an array), its parameters renumbered after the ones before it. A page that needs several reads
 * then costs one round trip to PostgreSQL instead of one each: on loopback TCP the gateway spent
 * a quarter of its CPU writing statements (ADR 0038, fifth amendment). One statement also sees
 * one snapshot, whatever the isolation level.
 *
 * The parts' values come back as JSON does: text stays text (the figures' sums are cast to text
 * for that reason), booleans, integers and json columns as they would from pg; timestamps would
 * come back as ISO strings instead of Dates, so a part must not select one.
 */
export function readsAsOne<Reads extends Record<string, SqlRead<unknown>>>(reads: Reads): SqlRead<ReadValues<Reads>> {
  const values: unknown[] = [];
  const parts = Object.entries(reads).map(([key, read], index) => {
    const text = renumbered(read.text, values.length, read.values.length);
    values.push(...read.values);
    const column = `part_${index}`;
    const json =
      read.shape === 'row'
        ? `(SELECT row_to_json(part) FROM (${text}) part)`
        : `(SELECT coalesce(json_agg(part), '[]') FROM (${text}) part)`;
    return { key, read, column, sql: `${json} AS ${column}` };
  });
  return {
    text: `SELECT ${parts.map((part) => part.sql).join(',\n')}`,
    values,
    shape: 'row',
    parse(rows) {
      const row = rows[0] ?? {};
      return Object.fromEntries(
        parts.map(({ key, read, column }) => {
          const value = row[column];
          const partRows = read.shape === 'row' ? (value ? [value] : []) : ((value ?? []) as unknown[]);
          return [key, read.parse(partRows as Record<string, unknown>[])];
        }),
      ) as ReadValues<Reads>;
    },
  };
}

/** The read's text with $1…$count moved up by `offset`; a parameter past its values is a bug. */
export function renumbered(text: string, offset: number, count: number): string {
  return text.replace(/\$(\d+)/g, (_whole, digits: string) => {
    const number = Number(digits);
    if (number < 1 || number > count) throw new Error(`a read names $${number} but has ${count} values`);
    return `$${number + offset}`;
  });
}
