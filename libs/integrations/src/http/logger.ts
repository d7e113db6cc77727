/**
 * The slice of a pino logger the clients use. Every line they write is built from a fixed
 * set of safe fields (provider, method, host, path template, status, attempt, duration, error
 * code); header values, bodies, query strings, tokens and codes are never passed to it.
 */
export interface ProviderLogger {
  info(fields: Record<string, unknown>, message?: string): void;
  warn(fields: Record<string, unknown>, message?: string): void;
}

export const silentLogger: ProviderLogger = { info: () => undefined, warn: () => undefined };
