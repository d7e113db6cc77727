import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import type { AppConfig } from '@pod/config';

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

/** Control characters would let user input forge extra log lines. */
export function singleLine(value: string): string {
  return value.replace(/[\r\n\u2028\u2029]/g, ' ');
}

export function pinoOptions(config: Pick<AppConfig, 'LOG_LEVEL'>, service: string): LoggerOptions {
  return {
    level: config.LOG_LEVEL,
    base: { service, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    messageKey: 'msg',
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    formatters: { level: (label) => ({ level: label }) },
  };
}

export function createLogger(config: Pick<AppConfig, 'LOG_LEVEL'> & Partial<Pick<AppConfig, 'LOG_FORMAT'>>, options: { service: string }): Logger {
  return pino(pinoOptions(config, options.service), logDestination(config));
}

/** Pretty output is synchronous and in-process (no transport thread), so nothing is lost on exit. */
export function logDestination(config: Partial<Pick<AppConfig, 'LOG_FORMAT'>>): DestinationStream {
  if (config.LOG_FORMAT === 'pretty') {
    return pretty({ sync: true, colorize: false, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service', singleLine: true });
  }
  return pino.destination({ dest: 1, sync: true });
}
