import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import type { AppConfig } from '@pod/config';
import { errorForLog } from './error-for-log';
import { escapeControlCharacters, escapeLoggedStrings } from './log-escaping';

/**
 * Paths never written to a log: session cookies, bearer and API-key headers, passwords and
 * tokens anywhere in a logged object. Request URLs are logged without their query string
 * (see requestSerializer) because OAuth codes and states travel there.
 */
export const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.confirmPassword',
  '*.token',
  '*.accessToken',
  '*.refreshToken',
  '*.access_token',
  '*.refresh_token',
  '*.secret',
  'password',
  'token',
];

/** Strips the query string: it may carry OAuth codes, states or tokens. */
export function pathWithoutQuery(url: string | undefined): string {
  if (!url) return '';
  const cut = url.indexOf('?');
  return cut === -1 ? url : url.slice(0, cut);
}

export { errorForLog } from './error-for-log';
export {
  databaseErrorText,
  isDatabaseError,
  isDatabaseUnavailable,
  loggableErrorMessage,
  statementName,
  summarizeDatabaseError,
} from './database-errors';
export { escapeControlCharacters } from './log-escaping';

export function pinoOptions(config: Pick<AppConfig, 'LOG_LEVEL'>, service: string): LoggerOptions {
  return {
    level: config.LOG_LEVEL,
    base: { service, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    messageKey: 'msg',
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { err: errorForLog, error: errorForLog },
    // A line break or escape sequence in a logged string would forge a line in the pretty
    // format (and in any viewer that prints fields raw): every string is escaped.
    hooks: {
      logMethod(args, method) {
        method.apply(
          this,
          args.map((arg) => (typeof arg === 'string' ? escapeControlCharacters(arg) : arg)) as Parameters<
            typeof method
          >,
        );
      },
    },
    formatters: {
      level: (label) => ({ level: label }),
      log: (object) => escapeLoggedStrings(object) as Record<string, unknown>,
    },
  };
}

export function createLogger(
  config: Pick<AppConfig, 'LOG_LEVEL'> & Partial<Pick<AppConfig, 'LOG_FORMAT'>>,
  options: { service: string },
): Logger {
  return pino(pinoOptions(config, options.service), logDestination(config));
}

/** Pretty output is synchronous and in-process (no transport thread), so nothing is lost on exit. */
export function logDestination(config: Partial<Pick<AppConfig, 'LOG_FORMAT'>>): DestinationStream {
  if (config.LOG_FORMAT === 'pretty') return prettyDestination();
  return pino.destination({ dest: 1, sync: true });
}

/**
 * The format `npm start` prints (LOG_FORMAT=pretty): one line per entry, errors included, to
 * stdout or the given stream (tests). Formatted here rather than by pino-pretty's stream, which
 * would take back the multi-line layout of `err` from pino's configuration message.
 */
export function prettyDestination(output?: NodeJS.WritableStream): DestinationStream {
  const prettify = pretty.prettyFactory({
    colorize: false,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service',
    singleLine: true,
    errorLikeObjectKeys: [],
  });
  const sink = output ?? pino.destination({ dest: 1, sync: true });
  return { write: (line: string) => void sink.write(prettify(line)) };
}
