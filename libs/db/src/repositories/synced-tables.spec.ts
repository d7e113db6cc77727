import { Column, Entity, PrimaryColumn, getMetadataArgsStorage } from 'typeorm';
import { MinorUnitsColumn } from '../columns';
import { SYNCED_TABLE_SPECS, SYNCED_UPSERTS } from './synced-tables';
import { syncedUpsert } from './synced-upsert';

/** The parts of a generated statement, as column names. */
function partsOf(sql: string) {
  const flat = sql.replace(/\s+/g, ' ');
  const list = (pattern: RegExp) =>
    (pattern.exec(flat)?.[1] ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  return {
    insert: list(/^INSERT INTO \w+ \(([^)]*)\)/),
    recordset: list(/jsonb_to_recordset\(\$3::jsonb\) AS \w+\((.*?)\)(?: ON CONFLICT|$)/).map((item) =>
      item.split(' '),
    ),
    conflictKey: list(/ON CONFLICT \(([^)]*)\)/),
    set: list(/DO UPDATE SET (.*?)(?: WHERE | RETURNING |$)/).map((item) => item.split(' = ')[0]),
  };
}

const DB_TYPES: Record<string, string> = { char: 'text', int: 'integer' };

describe.each(Object.entries(SYNCED_TABLE_SPECS))('the %s upsert', (name, spec) => {
  const upsert = SYNCED_UPSERTS[name as keyof typeof SYNCED_UPSERTS];
  const declared = getMetadataArgsStorage()
    .filterColumns(spec.entity)
    .map((args) => ({ name: args.options.name ?? args.propertyName, type: String(args.options.type) }));
  const parts = partsOf(upsert.sql);

  it('writes every column the entity declares, except those left to their default', () => {
    expect([...parts.insert, ...spec.leftToDefault].sort()).toEqual(declared.map((column) => column.name).sort());
    expect(new Set(parts.insert).size).toBe(parts.insert.length);
  });

  it('reads each row column from the JSON with the entity’s type', () => {
    const fromRows = declared.filter(
      (column) =>
        !(column.name in spec.fromParameters) && !(spec.leftToDefault as readonly string[]).includes(column.name),
    );
    expect(parts.recordset).toEqual(fromRows.map((column) => [column.name, DB_TYPES[column.type] ?? column.type]));
  });

  it('updates every written column but the key on a conflict', () => {
    if (!spec.onConflict) return expect(parts.set).toEqual([]);
    expect(parts.conflictKey).toEqual(spec.conflictKey);
    const expected = [
      ...parts.insert.filter((column) => !(spec.conflictKey as readonly string[]).includes(column)),
      ...Object.keys(spec.onConflict.alsoSet),
    ];
    expect([...new Set(parts.set)].sort()).toEqual([...new Set(expected)].sort());
  });
});

describe('a synced row as the statement reads it', () => {
  it('carries each column by its database name, dates as ISO text and missing values as null', () => {
    const json = SYNCED_UPSERTS.etsyReceiptLine.recordsetJson([
      {
        transactionId: 't1',
        receiptId: 'r1',
        listingId: null,
        productId: 'p',
        title: 'Mug',
        sku: undefined,
        quantity: 2,
        currency: 'USD',
        unitPriceMinor: 1250,
        shippingMinor: null,
        isDigital: false,
      },
    ]);
    expect(JSON.parse(json)).toEqual([
      {
        transaction_id: 't1',
        receipt_id: 'r1',
        listing_id: null,
        product_id: 'p',
        title: 'Mug',
        sku: null,
        quantity: 2,
        currency: 'USD',
        unit_price_minor: 1250,
        shipping_minor: null,
        is_digital: false,
      },
    ]);
    const entry = SYNCED_UPSERTS.etsyLedgerEntry.recordsetJson([{ entryCreatedAt: new Date(Date.UTC(2026, 0, 2)) }]);
    expect(JSON.parse(entry)[0].entry_created_at).toBe('2026-01-02T00:00:00.000Z');
  });
});

describe('a column added to an entity', () => {
  @Entity({ name: 'example_synced' })
  class ExampleSyncedEntity {
    @PrimaryColumn({ name: 'user_id', type: 'uuid' })
    userId: string;

    @PrimaryColumn({ name: 'shop_id', type: 'text' })
    shopId: string;

    @PrimaryColumn({ name: 'entry_id', type: 'text' })
    entryId: string;

    @MinorUnitsColumn({ name: 'balance', nullable: true })
    balance: number | null;

    @Column({ name: 'sequence_number', type: 'int', nullable: true })
    sequenceNumber: number | null;
  }

  it('is in the recordset, the INSERT and the SET list with nothing else to write', () => {
    const upsert = syncedUpsert({
      table: 'example_synced',
      entity: ExampleSyncedEntity,
      alias: 'e',
      fromParameters: { user_id: '$1', shop_id: '$2' },
      leftToDefault: [],
      conflictKey: ['user_id', 'shop_id', 'entry_id'],
      onConflict: { alsoSet: {}, when: null, returnKey: 'entry_id' },
    });
    expect(upsert.sql.replace(/\s+/g, ' ')).toBe(
      'INSERT INTO example_synced (user_id, shop_id, entry_id, balance, sequence_number) ' +
        'SELECT $1, $2, e.entry_id, e.balance, e.sequence_number ' +
        'FROM jsonb_to_recordset($3::jsonb) AS e(entry_id text, balance bigint, sequence_number integer) ' +
        'ON CONFLICT (user_id, shop_id, entry_id) DO UPDATE SET balance = EXCLUDED.balance, sequence_number = EXCLUDED.sequence_number ' +
        'RETURNING entry_id AS key, (xmax = 0) AS inserted',
    );
  });

  it('refuses a spec naming a column the entity does not have', () => {
    expect(() =>
      syncedUpsert({
        table: 'example_synced',
        entity: ExampleSyncedEntity,
        alias: 'e',
        fromParameters: { user_id: '$1', shop_id: '$2', fetched_at: '$4' },
        leftToDefault: [],
        conflictKey: ['user_id', 'shop_id', 'entry_id'],
        onConflict: null,
      }),
    ).toThrow(/fetched_at is not a column of ExampleSyncedEntity/);
    expect(() =>
      syncedUpsert({
        table: 'example_synced',
        entity: ExampleSyncedEntity,
        alias: 'e',
        fromParameters: { shop_id: '$2' },
        leftToDefault: [],
        conflictKey: ['user_id', 'shop_id', 'entry_id'],
        onConflict: null,
      }),
    ).toThrow(/user_id must come from \$1/);
  });
});
