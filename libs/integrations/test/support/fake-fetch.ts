import type { FetchLike } from '../../src/http/request';

export interface RecordedCall {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  redirect: RequestInit['redirect'];
  atMs: number;
}

export type Reply = Response | Error | (() => Response | Error | Promise<Response>) | 'hang';

/** A fetch that answers from a script of replies, one per call (the last one repeats), and records each call. */
export function fakeFetch(...script: Reply[]): FetchLike & { calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const fn = async (url: string, init: RequestInit): Promise<Response> => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => (headers[key] = value));
    calls.push({
      url: new URL(url),
      method: init.method ?? 'GET',
      headers,
      body: typeof init.body === 'string' ? init.body : undefined,
      redirect: init.redirect,
      atMs: Date.now(),
    });
    const reply = script.length
      ? script[Math.min(calls.length - 1, script.length - 1)]
      : new Error('no reply scripted');
    if (reply === 'hang') {
      return new Promise<Response>((_, reject) =>
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    }
    const value = typeof reply === 'function' ? await reply() : reply;
    if (value instanceof Error) throw value;
    return value.clone();
  };
  return Object.assign(fn, { calls });
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

export function text(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers });
}

/** A network failure as undici reports it: TypeError('fetch failed') with a coded cause. */
export function networkError(code: string): Error {
  const cause = Object.assign(new Error(`connect ${code} 127.0.0.1:443`), { code });
  return new TypeError('fetch failed', { cause });
}

/** A 200 whose body sends `first` and then never ends. */
export function stalledBody(first = '{"a":'): Response {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(first));
    },
  });
  return new Response(stream, { status: 200 });
}

/** Captures log lines as the JSON a pino logger would write. */
export function captureLogger() {
  const lines: string[] = [];
  const write = (level: string) => (fields: Record<string, unknown>, message?: string) =>
    lines.push(JSON.stringify({ level, ...fields, msg: message }));
  return { logger: { info: write('info'), warn: write('warn') }, lines };
}
