import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ActiveFault, RecordPatch } from './faults';
import type { LoggedRequest, Target } from './request-log';

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's entry in the sandbox request log (null for admin and unknown paths). */
    sandboxLog: LoggedRequest | null;
    /** Set by a body knob (malformed-json, slow-body, oversize, truncated-body): how the real answer goes out. */
    sandboxBodyFault: ActiveFault | null;
  }
}

/**
 * Each provider is also served under a prefix (/etsy, /printify, /ecb), so a product can point
 * each base URL at `<sandbox>/<provider>`; the canonical path drops that prefix.
 */
export const ALIAS_PREFIXES = ['/etsy', '/printify', '/ecb'] as const;

export function canonicalPath(path: string): string {
  for (const prefix of ALIAS_PREFIXES) {
    if (path.startsWith(`${prefix}/`)) {
      const rest = path.slice(prefix.length);
      if (targetOf(rest) !== 'other' && targetOf(rest) !== 'admin') return rest;
    }
  }
  return path;
}

export function targetOf(path: string): Target {
  if (path.startsWith('/v3/') || path.startsWith('/oauth/')) return 'etsy';
  if (path.startsWith('/v1/')) return 'printify';
  if (path.startsWith('/stats/')) return 'ecb';
  if (path.startsWith('/__sandbox/')) return 'admin';
  return 'other';
}

export function pathOf(request: FastifyRequest): string {
  const url = request.raw.url ?? '/';
  const cut = url.indexOf('?');
  return canonicalPath(cut === -1 ? url : url.slice(0, cut));
}

/** A short, stable, non-reversible name for a secret (for the request log). */
export function fingerprint(secret: string): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 12);
}

export function noteRequest(request: FastifyRequest, tenantId: string | null, credential: string | null): void {
  if (!request.sandboxLog) return;
  if (tenantId !== null) request.sandboxLog.tenantId = tenantId;
  if (credential !== null) request.sandboxLog.credential = credential;
}

/** Error bodies in each provider's own shape. */
export function errorBody(target: Target, status: number, message: string): unknown {
  if (target === 'printify') return { status: 'error', code: status, message };
  return { error: message };
}

const HTML_ERROR = (status: number) =>
  `<!DOCTYPE html>\n<html><head><title>${status} Error</title></head><body><h1>${status} Error</h1><p>The upstream server is temporarily unavailable.</p></body></html>\n`;

/**
 * Answers a request as the fault says. Returns true when the reply is taken care of ('hang'
 * leaves it open until the client gives up), false when the request goes on (malformed-json
 * only marks it so the real answer gets cut short).
 */
export function applyFault(
  fault: ActiveFault,
  request: FastifyRequest,
  reply: FastifyReply,
  extraHeaders: Record<string, string> = {},
): boolean {
  if (request.sandboxLog) request.sandboxLog.fault = fault.kind;
  switch (fault.kind) {
    case 'malformed-json':
    case 'slow-body':
    case 'oversize':
    case 'truncated-body':
    case 'patch-records':
      request.sandboxBodyFault = fault;
      return false;
    case 'hang':
      reply.hijack();
      return true;
    case 'reset':
      // No answer at all: the connection is cut (the client sees a reset or a closed socket).
      reply.hijack();
      request.raw.socket.destroy();
      return true;
    case 'redirect':
      void reply
        .code(fault.status ?? 302)
        .header('location', fault.location ?? 'https://evil.example/')
        .send();
      return true;
    case '429':
    case 'quota-exhausted': {
      const retryAfter = fault.retryAfterSeconds ?? (fault.kind === '429' ? 1 : 3600);
      void reply
        .code(429)
        .headers(extraHeaders)
        .header('retry-after', String(retryAfter))
        .send(
          errorBody(fault.target, 429, fault.kind === '429' ? 'Too many requests' : 'Daily request quota exceeded'),
        );
      return true;
    }
    case '5xx': {
      const status = fault.status ?? 500;
      if (fault.retryAfterSeconds !== undefined) reply.header('retry-after', String(fault.retryAfterSeconds));
      if (status === 500) void reply.code(status).send(errorBody(fault.target, status, 'Internal Server Error'));
      else void reply.code(status).type('text/html; charset=utf-8').send(HTML_ERROR(status));
      return true;
    }
  }
}

export const DEFAULT_OVERSIZE_BYTES = 11 * 1024 * 1024;

/**
 * The real answer (`text`, already serialized) as a body knob sends it: cut in half
 * (malformed-json), padded past a client's size cap with trailing whitespace, which keeps it
 * valid JSON (oversize), trickled after prompt headers (slow-body), or half of it under a
 * Content-Length promising all of it before the connection is cut (truncated-body).
 */
export function bodyUnderFault(fault: ActiveFault, text: string, reply: FastifyReply): string | Readable {
  switch (fault.kind) {
    case 'oversize':
      return text + ' '.repeat(Math.max(0, (fault.bytes ?? DEFAULT_OVERSIZE_BYTES) - Buffer.byteLength(text)));
    case 'slow-body':
      return trickle(Buffer.from(text), fault.bytesPerSecond ?? 1);
    case 'truncated-body': {
      const bytes = Buffer.from(text);
      reply.header('content-length', String(bytes.length));
      let sentHalf = false;
      return new Readable({
        read() {
          if (!sentHalf) {
            sentHalf = true;
            this.push(bytes.subarray(0, Math.max(1, Math.floor(bytes.length / 2))));
            return;
          }
          // Once the half is on the wire: Fastify ends a response whose stream fails by destroying the socket.
          setTimeout(() => this.destroy(new Error('sandbox: truncated-body knob')), 20);
        },
      });
    }
    case 'patch-records':
      return patchRecords(text, fault.patches ?? []);
    case 'malformed-json':
    case '429':
    case '5xx':
    case 'hang':
    case 'quota-exhausted':
    case 'redirect':
    case 'reset':
      return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
  }
}

/** The answer with its records patched (a non-JSON or non-list answer goes out unchanged). */
function patchRecords(text: string, patches: readonly RecordPatch[]): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return text;
  }
  const list =
    body && typeof body === 'object'
      ? ((body as Record<string, unknown>).results ?? (body as Record<string, unknown>).data)
      : undefined;
  if (!Array.isArray(list)) return text;
  for (const patch of patches) {
    if (patch.path.length === 0 || patch.index < 0 || patch.index >= list.length) continue;
    let parent: unknown = list[patch.index];
    for (const key of patch.path.slice(0, -1))
      parent = parent && typeof parent === 'object' ? (parent as Record<string | number, unknown>)[key] : undefined;
    if (!parent || typeof parent !== 'object') continue;
    const last = patch.path[patch.path.length - 1];
    if (patch.op === 'delete') delete (parent as Record<string | number, unknown>)[last];
    else (parent as Record<string | number, unknown>)[last] = patch.value;
  }
  return JSON.stringify(body);
}

/**
 * A stream of `bytes`, one byte every 1/bytesPerSecond s (timers stop when the client goes away).
 * The first byte goes at once: Node sends a streamed answer's headers with its first chunk, and
 * the knob promises prompt headers and a slow body (a slow first byte would be a header delay).
 */
function trickle(bytes: Buffer, bytesPerSecond: number): Readable {
  const gapMs = Math.max(1, Math.round(1000 / bytesPerSecond));
  let sent = 0;
  let timer: NodeJS.Timeout | undefined;
  return new Readable({
    read() {
      if (sent === 0 && bytes.length > 0) {
        this.push(bytes.subarray(0, 1));
        sent = 1;
        return;
      }
      if (timer) return;
      timer = setTimeout(() => {
        timer = undefined;
        if (sent >= bytes.length) {
          this.push(null);
          return;
        }
        this.push(bytes.subarray(sent, sent + 1));
        sent += 1;
      }, gapMs);
    },
    destroy(error, done) {
      if (timer) clearTimeout(timer);
      done(error);
    },
  });
}

/** Parses Etsy-style booleans (true/false/1/0); undefined when absent, null when invalid. */
export function parseBool(value: string | undefined): boolean | undefined | null {
  if (value === undefined) return undefined;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return null;
}

/** Parses a whole number; undefined when absent, null when not an integer. */
export function parseIntParam(value: string | undefined): number | undefined | null {
  if (value === undefined) return undefined;
  if (!/^-?\d{1,16}$/.test(value)) return null;
  return Number(value);
}

export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export type Query = Record<string, string | undefined>;

export function queryOf(request: FastifyRequest): Query {
  const raw = request.query as Record<string, string | string[] | undefined>;
  const out: Query = {};
  for (const [key, value] of Object.entries(raw ?? {}))
    out[key] = Array.isArray(value) ? value[value.length - 1] : value;
  return out;
}
