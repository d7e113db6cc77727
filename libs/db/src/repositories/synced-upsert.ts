import { getMetadataArgsStorage } from 'typeorm';
import type { MinorUnits } from '@pod/domain';
import { jsonForPostgres } from './synced-rows';

/**
 * A synced table's columns are written once, in its entity: the upsert's recordset, INSERT
 * list and ON CONFLICT … SET list are generated from the entity's column metadata, and the row
 * type a sync writer passes is the entity's properties. Adding a column to the entity (and its
 * migration) is all it takes for the writers to carry it.
 */

/** Money as the plain numbers mappers produce (the entity's MinorUnits is a branded number). */
type Unbranded<T> = T extends MinorUnits ? number : T;

/**
 * An entity's columns as a sync writer passes them: the relation and `Omitted` (the owner and
 * shop, columns the statement or the database fills, columns derived from the row) left out.
 */
export type SyncedRowOf<Entity, Omitted extends keyof Entity> = {
  [K in Exclude<keyof Entity, Omitted | 'user'>]: Unbranded<Entity[K]>;
};

/** One column the statement reads from the JSON rows. */
export interface RecordsetColumn {
  /** The entity property (the row's field). */
  readonly property: string;
  /** The database column. */
  readonly name: string;
  /** Its type in `jsonb_to_recordset(…) AS alias(name type, …)`. */
  readonly type: string;
}

/** How one synced table is upserted; the column lists come from `entity`. */
export interface SyncedTableSpec {
  readonly table: string;
  /** The TypeORM entity class of the table (its @Column metadata names and types the columns). */
  readonly entity: abstract new (...args: never[]) => unknown;
  /** The recordset's alias in the statement. */
  readonly alias: string;
  /** Columns the statement fills from a parameter, not from the rows (`user_id: '$1'`). */
  readonly fromParameters: Readonly<Record<string, string>>;
  /** Columns an insert leaves to their database default (or NULL). */
  readonly leftToDefault: readonly string[];
  /** The unique key (the owner and shop columns first). */
  readonly conflictKey: readonly string[];
  /** A stored row is updated from the new one (every column but the key), plus `alsoSet`, `when` allows; null: insert only. */
  readonly onConflict: {
    readonly alsoSet: Readonly<Record<string, string>>;
    readonly when: string | null;
    /** The key column returned with whether the row was inserted (`RETURNING key AS key, (xmax = 0) AS inserted`). */
    readonly returnKey: string | null;
  } | null;
}

export interface SyncedUpsert {
  /** The statement: $1 user id, $2 shop id, $3 the rows as JSON (`recordsetJson`), $4 (if used) the fetch time. */
  readonly sql: string;
  readonly recordsetColumns: readonly RecordsetColumn[];
  /** The rows as the statement's $3: each entity-shaped row reduced to the recordset's columns, by database name. */
  recordsetJson(rows: readonly object[]): string;
}

/** pg type of a recordset field: char(n) is read as text (the INSERT casts it), the rest as declared. */
const RECORDSET_TYPES: Readonly<Record<string, string>> = {
  text: 'text',
  uuid: 'uuid',
  char: 'text',
  int: 'integer',
  integer: 'integer',
  bigint: 'bigint',
  boolean: 'boolean',
  timestamptz: 'timestamptz',
  jsonb: 'jsonb',
};

/** The columns an entity declares, in declaration order, with their database names and recordset types. */
export function entityColumns(entity: SyncedTableSpec['entity']): RecordsetColumn[] {
  return getMetadataArgsStorage()
    .filterColumns(entity)
    .map((args) => {
      const declared = args.options.type;
      const type = typeof declared === 'string' ? RECORDSET_TYPES[declared] : undefined;
      if (!type) throw new Error(`${entity.name}.${args.propertyName}: no recordset type for ${String(declared)}`);
      return { property: args.propertyName, name: args.options.name ?? args.propertyName, type };
    });
}

export function syncedUpsert(spec: SyncedTableSpec): SyncedUpsert {
  // Every synced row is one user's (row-level security and the tenant-scope test hold to it).
  if (spec.fromParameters.user_id !== '$1' || spec.conflictKey[0] !== 'user_id')
    throw new Error(`${spec.table}: user_id must come from $1 and lead the key`);
  const all = entityColumns(spec.entity);
  const known = new Set(all.map((column) => column.name));
  const named = [...Object.keys(spec.fromParameters), ...spec.leftToDefault, ...spec.conflictKey];
  for (const name of named)
    if (!known.has(name)) throw new Error(`${spec.table}: ${name} is not a column of ${spec.entity.name}`);
  const recordsetColumns = all.filter(
    (column) => !(column.name in spec.fromParameters) && !spec.leftToDefault.includes(column.name),
  );
  const a = spec.alias;
  const insertColumns = [...Object.keys(spec.fromParameters), ...recordsetColumns.map((column) => column.name)];
  const selected = [...Object.values(spec.fromParameters), ...recordsetColumns.map((column) => `${a}.${column.name}`)];
  const lines = [
    `INSERT INTO ${spec.table} (${insertColumns.join(', ')})`,
    `SELECT ${selected.join(', ')}`,
    `FROM jsonb_to_recordset($3::jsonb) AS ${a}(${recordsetColumns.map((column) => `${column.name} ${column.type}`).join(', ')})`,
  ];
  if (spec.onConflict) {
    const updated = insertColumns
      .filter((name) => !spec.conflictKey.includes(name) && !(name in spec.onConflict!.alsoSet))
      .map((name) => `${name} = EXCLUDED.${name}`);
    const also = Object.entries(spec.onConflict.alsoSet).map(([name, value]) => `${name} = ${value}`);
    lines.push(`ON CONFLICT (${spec.conflictKey.join(', ')}) DO UPDATE SET ${[...updated, ...also].join(', ')}`);
    if (spec.onConflict.when) lines.push(`WHERE ${spec.onConflict.when}`);
    if (spec.onConflict.returnKey) lines.push(`RETURNING ${spec.onConflict.returnKey} AS key, (xmax = 0) AS inserted`);
  }
  return {
    sql: lines.join('\n'),
    recordsetColumns,
    recordsetJson: (rows) =>
      jsonForPostgres(
        rows.map((row) => {
          const fields = row as Record<string, unknown>;
          const out: Record<string, unknown> = {};
          for (const column of recordsetColumns) {
            const value = fields[column.property];
            out[column.name] = value instanceof Date ? value.toISOString() : (value ?? null);
          }
          return out;
        }),
      ),
  };
}
