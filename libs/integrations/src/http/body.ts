import type { FetchLike } from './request';

/** Network error codes that mean the request never reached the server, so a retry is always safe. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** The body passed the size cap; the caller turns it into a MalformedResponseError. */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the body is larger than ${maxBytes} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

/** Why one call failed below HTTP: a network error or one of our timeouts. */
export class TransportFailure extends Error {
  constructor(
    readonly kind: 'network' | 'headers_timeout' | 'body_timeout',
    /** A system error code (ECONNRESET…), never a message that could quote a URL. */
    readonly errorCode: string | undefined,
    /** False only when the server surely never saw the request. */
    readonly maybeSent: boolean,
  ) {
    super(kind);
    this.name = 'TransportFailure';
  }

  static from(error: unknown): TransportFailure {
    if (error instanceof TransportFailure) return error;
    const code = systemCode(error);
    return new TransportFailure('network', code, !(code && NOT_SENT_CODES.has(code)));
  }

  describe(): string {
    if (this.kind === 'headers_timeout') return 'no response headers before the timeout';
    if (this.kind === 'body_timeout') return 'the body did not arrive before the timeout';
    return `network error${this.errorCode ? ` (${this.errorCode})` : ''}`;
  }
}

function systemCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function timer(ms: number, onFire: () => void): () => void {
  const handle = setTimeout(onFire, ms);
  return () => clearTimeout(handle);
}

/** fetch, failing with a headers timeout when no response arrives in time (and aborting the call). */
export async function sendWithTimeout(
  fetchImpl: FetchLike,
  url: string,
  init: RequestInit,
  controller: AbortController,
  headersMs: number,
): Promise<Response> {
  let cancel: () => void = () => undefined;
  const timeout = new Promise<never>((_, reject) => {
    cancel = timer(headersMs, () => {
      reject(new TransportFailure('headers_timeout', undefined, true));
      controller.abort();
    });
  });
  try {
    return await Promise.race([fetchImpl(url, { ...init, signal: controller.signal }), timeout]);
  } finally {
    cancel();
  }
}

/**
 * Reads the whole body within `bodyMs`, refusing more than `maxBytes` (by the declared
 * Content-Length before reading, and by counting while reading).
 */
export async function readBodyCapped(
  response: Response,
  controller: AbortController,
  bodyMs: number,
  maxBytes: number,
): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    controller.abort();
    void response.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(maxBytes);
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let cancel: () => void = () => undefined;
  const timeout = new Promise<never>((_, reject) => {
    cancel = timer(bodyMs, () => reject(new TransportFailure('body_timeout', undefined, true)));
  });
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), timeout]);
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) throw new BodyTooLargeError(maxBytes);
      chunks.push(value);
    }
  } catch (error) {
    controller.abort();
    void reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    cancel();
  }
  return Buffer.concat(chunks);
}
