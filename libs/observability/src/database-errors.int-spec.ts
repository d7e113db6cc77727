import { Writable } from 'node:stream';
import { Client } from 'pg';
import pino from 'pino';
import { DataSource } from 'typeorm';
import { shortReason } from '@pod/queue';
import { createTestDatabase, type TestDatabase } from '@pod/testing';
import { pinoOptions } from './logger';

/**
 * Real PostgreSQL errors, through TypeORM and through the pg driver, logged by the services'
 * pino options and cut to a job's failure reason: the SQLSTATE, routine, constraint and the
 * statement's name reach the line; the value the user sent (in the message, detail or
 * parameters) never does.
 */
let database: TestDatabase;
let dataSource: DataSource;
let client: Client;

beforeAll(async () => {
  database = await createTestDatabase('dberrlog');
  dataSource = await new DataSource({ type: 'postgres', url: database.url }).initialize();
  await dataSource.query(
    `CREATE TABLE person (id uuid PRIMARY KEY, email text NOT NULL CONSTRAINT person_email_key UNIQUE)`,
  );
  await dataSource.query(
    `INSERT INTO person VALUES ('00000000-0000-0000-0000-000000000001', 'taken-secret@example.com')`,
  );
  client = new Client({ connectionString: database.url });
  await client.connect();
}, 60_000);

afterAll(async () => {
  await client?.end();
  await dataSource?.destroy();
  await database?.drop();
});

function loggedLine(error: unknown): string {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  pino(pinoOptions({ LOG_LEVEL: 'info' }, 'test'), sink).error(
    { err: error, reqId: 'r1', event: 'http.error' },
    'request failed',
  );
  expect(lines).toHaveLength(1);
  return lines[0];
}

const failureOf = (work: () => Promise<unknown>) =>
  work().then(
    () => {
      throw new Error('the statement succeeded');
    },
    (error: unknown) => error,
  );

describe('a PostgreSQL error in the log', () => {
  it.each([
    [
      'a uuid (TypeORM)',
      () => dataSource.query(`SELECT id FROM person WHERE id = $1`, ['not-a-uuid-secret']),
      'not-a-uuid-secret',
      {
        code: '22P02',
        condition: 'invalid_text_representation',
        routine: 'string_to_uuid',
        statement: expect.stringMatching(/^SELECT person#[0-9a-f]{8}$/),
      },
    ],
    [
      'a date (TypeORM)',
      () => dataSource.query(`SELECT $1::date AS day`, ['-000001-12-secret']),
      '-000001-12-secret',
      { code: '22007', condition: 'invalid_datetime_format', statement: expect.stringMatching(/^SELECT#[0-9a-f]{8}$/) },
    ],
    [
      'a unique violation (TypeORM)',
      () =>
        dataSource.query(`INSERT INTO person VALUES ($1, $2)`, [
          '00000000-0000-0000-0000-000000000002',
          'taken-secret@example.com',
        ]),
      'taken-secret',
      {
        code: '23505',
        condition: 'unique_violation',
        constraint: 'person_email_key',
        table: 'person',
        statement: expect.stringMatching(/^INSERT person#[0-9a-f]{8}$/),
      },
    ],
    [
      'a uuid (pg driver)',
      () => client.query(`SELECT id FROM person WHERE id = $1`, ['not-a-uuid-secret']),
      'not-a-uuid-secret',
      { code: '22P02', routine: 'string_to_uuid' },
    ],
  ])('%s: code, routine and statement name; never the value', async (_what, statement, value, expected) => {
    const error = await failureOf(statement);
    // PostgreSQL does quote it, in the message or the detail.
    expect(`${(error as Error).message} ${(error as { detail?: string }).detail}`).toContain(value.slice(0, 10));
    const line = loggedLine(error);
    expect(JSON.parse(line).err).toMatchObject({
      ...expected,
      message: expect.stringMatching(/^PostgreSQL error [0-9A-Z]{5} /),
    });
    expect(line).not.toContain(value.slice(0, 10));
    expect(line).not.toMatch(/invalid input syntax|duplicate key|Key \(email\)/);
    // Its frames stay (the logger escapes the line breaks).
    expect(JSON.parse(line).err.stack).toMatch(/^\w+: PostgreSQL error .*\\n {4}at /);
    expect(shortReason(error)).toMatch(new RegExp(`^PostgreSQL error ${expected.code} `));
    expect(shortReason(error)).not.toContain(value.slice(0, 10));
  });

  it('keeps other errors as they were', () => {
    const error = new Error('the provider answered 502');
    expect(JSON.parse(loggedLine(error)).err).toMatchObject({ type: 'Error', message: 'the provider answered 502' });
    expect(shortReason(error)).toBe('the provider answered 502');
  });
});
