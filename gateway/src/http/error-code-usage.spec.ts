import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The rules that keep error codes the one contract, checked on the source: the gateway throws
 * ApiException (or its subclasses), never Nest's built-in exceptions, which carry no code; the
 * web app branches on `code`, never on a status or the wording of a message.
 */
const ROOT = join(__dirname, '../../..');

function sources(dir: string, pattern: RegExp): Array<{ path: string; text: string }> {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((name) => pattern.test(name) && !/\.(spec|int-spec|e2e-spec)\.tsx?$/.test(name))
    .map((name) => ({
      path: relative(ROOT, join(ROOT, dir, name)),
      text: readFileSync(join(ROOT, dir, name), 'utf8'),
    }));
}

function offending(files: Array<{ path: string; text: string }>, rule: RegExp): string[] {
  return files.flatMap(({ path, text }) =>
    text.split('\n').flatMap((line, i) => (rule.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])),
  );
}

const OUR_EXCEPTIONS = ['ApiException', 'ProviderBusyException', 'TooManyAttemptsException', 'SignInLockedException'];

describe('error codes, on the source', () => {
  it('the gateway throws no Nest built-in exception (they carry no code)', () => {
    const builtIn = new RegExp(`new (?!(${OUR_EXCEPTIONS.join('|')})\\()\\w+Exception\\(`);
    expect(offending(sources('gateway/src', /\.ts$/), builtIn)).toEqual([]);
  });

  it('the gateway does not classify errors by their message text', () => {
    expect(
      offending(
        sources('gateway/src', /\.ts$/),
        /\.message\s*\.(includes|startsWith|endsWith|match)\(|\.test\([^)]*\.message\b/,
      ),
    ).toEqual([]);
  });

  it('the web app branches on code, not on a status or a message', () => {
    const web = sources('web/src', /\.tsx?$/);
    expect(offending(web, /\.status\s*[!=]==?\s*\d/)).toEqual([]);
    expect(
      offending(web, /serverMessage\s*[!=]==|serverMessage\??\.(startsWith|includes|match)|\.test\(message\)/),
    ).toEqual([]);
  });
});
