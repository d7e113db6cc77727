import { Writable } from 'node:stream';
import pino from 'pino';
import { errorForLog } from './error-for-log';
import { escapeControlCharacters } from './log-escaping';
import { pinoOptions, prettyDestination } from './logger';

describe('escapeControlCharacters', () => {
  it('writes line breaks, escapes and other controls as visible escapes', () => {
    expect(escapeControlCharacters('a\nb\r\tc\u001b[2J\u0000\u2028\u0085')).toBe(
      'a\\nb\\r\\tc\\u001b[2J\\u0000\\u2028\\u0085',
    );
    expect(escapeControlCharacters('plain é € 🎨')).toBe('plain é € 🎨');
  });
});

describe('errorForLog', () => {
  it("keeps a failed query's names and codes, never its parameters, SQL or row detail", () => {
    const failed = Object.assign(new Error('new row for relation "app_user" violates check constraint "c"'), {
      name: 'QueryFailedError',
      query: 'INSERT INTO "app_user"("email", "password_hash") VALUES ($1, $2)',
      parameters: ['someone@example.com', '$argon2id$v=19$m=19456'],
      driverError: { detail: 'Failing row contains (someone@example.com)' },
      detail: 'Failing row contains (someone@example.com)',
      code: '23514',
      table: 'app_user',
      constraint: 'c',
      length: 42,
    });
    const logged = JSON.stringify(errorForLog(failed));
    expect(logged).toContain('23514');
    expect(logged).toContain('app_user');
    // The statement is named (verb, first table, hash of its text), not quoted.
    expect(logged).toMatch(/"statement":"INSERT app_user#[0-9a-f]{8}"/);
    expect(logged).not.toMatch(/someone@example\.com|argon2|VALUES|password_hash|Failing row|violates/);
  });

  it('escapes the message and stack, and follows causes a few levels', () => {
    const error = new Error('bad\n[gateway] FORGED', { cause: new Error('inner') });
    const logged = errorForLog(error);
    expect(logged.message).toBe('bad\\n[gateway] FORGED');
    expect(String(logged.stack)).not.toContain('\n');
    expect(logged.cause).toMatchObject({ message: 'inner' });
    expect(errorForLog('just text')).toEqual({ message: 'just text' });
  });
});

describe('a logger built from pinoOptions', () => {
  const capture = (pretty: boolean) => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    return { lines, logger: pino(pinoOptions({ LOG_LEVEL: 'info' }, 'test'), pretty ? prettyDestination(sink) : sink) };
  };

  it.each([false, true])('cannot be made to print a forged line (pretty: %s)', (pretty) => {
    const { lines, logger } = capture(pretty);
    const forged = 'x\n[gateway] FORGED admin signed in';
    logger.info({ field: forged, [forged]: 1, nested: { list: [forged] } }, `property ${forged} should not exist`);
    logger.error({ err: new Error(forged) }, 'failed');
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).toContain('\\n[gateway] FORGED');
  });
});
