// The one fetcher and the one mutation helper. Every call sends the session cookie; every
// non-OK answer becomes an ApiError whose message is "status: body" (or the status text
// when the body is empty). Code branches on `code` (one of @pod/contracts' API_ERROR_CODES),
// never on the wording of `serverMessage`, which is only shown.
import type { ApiErrorCode } from '@pod/contracts';

export class ApiError extends Error {
  readonly status: number;
  readonly bodyText: string;
  /** The error body's `code`; undefined when the answer was not one of ours (a proxy's 502 page). */
  readonly code: ApiErrorCode | undefined;
  /** The input field the error is about, when the server named one. */
  readonly field: string | undefined;
  /** The `message` of the server's JSON error body, if any: for people, never matched. */
  readonly serverMessage: string | undefined;
  /** The answer's `Retry-After` in seconds (429, 503), when it sent one. */
  readonly retryAfterSeconds: number | undefined;

  constructor(status: number, statusText: string, bodyText: string, retryAfter: string | null = null) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.bodyText = bodyText;
    const body = parseErrorBody(bodyText);
    // Type only: the list of codes stays out of the landing bundle; an unknown code matches no branch.
    this.code = typeof body.code === 'string' ? (body.code as ApiErrorCode) : undefined;
    this.field = typeof body.field === 'string' && body.field ? body.field : undefined;
    this.serverMessage = typeof body.message === 'string' && body.message.trim() ? body.message : undefined;
    const seconds = Number(retryAfter);
    this.retryAfterSeconds = retryAfter && Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined;
  }
}

/** An error is ours and has this code. */
export function hasErrorCode(error: unknown, ...codes: ApiErrorCode[]): error is ApiError {
  return error instanceof ApiError && error.code !== undefined && codes.includes(error.code);
}

function parseErrorBody(bodyText: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(bodyText);
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {}; // not JSON
  }
}

async function ensureOk(response: Response): Promise<Response> {
  if (response.ok) return response;
  const bodyText = await response.text().catch(() => '');
  throw new ApiError(response.status, response.statusText, bodyText, response.headers.get('retry-after'));
}

async function parseBody<T>(response: Response): Promise<T> {
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** SWR's fetcher: GET the key, parse JSON, throw on any non-OK status (401 included). */
export async function fetcher<T>(url: string): Promise<T> {
  const response = await fetch(url, { credentials: 'include', headers: { Accept: 'application/json' } });
  return parseBody<T>(await ensureOk(response));
}

export type MutationMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * State-changing call. Always sends `Content-Type: application/json` (the gateway refuses
 * state-changing requests without it), even when there is no body.
 */
export async function apiRequest<T = unknown>(method: MutationMethod, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'include',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return parseBody<T>(await ensureOk(response));
}

/**
 * The gateway could not check the session (its database is busy): the session still stands,
 * so the app keeps the user signed in and asks again (see serviceBusyRetry).
 */
export function isServiceBusy(error: unknown): boolean {
  return hasErrorCode(error, 'service_busy');
}

export const SERVICE_BUSY_TEXT = 'Service busy, retrying';

/** When to ask again after a busy answer: the server's Retry-After, else 2 s, growing to 30 s at most. */
export function serviceBusyDelayMs(error: unknown, retryCount: number): number {
  const hinted = error instanceof ApiError ? error.retryAfterSeconds : undefined;
  const base = hinted !== undefined ? Math.max(1, hinted) * 1000 : 2000;
  return Math.min(30_000, base * Math.min(2 ** Math.max(0, retryCount - 1), 8));
}

/**
 * SWR's onErrorRetry for busy answers (the only ones retried, see AppProviders): ask again
 * after the server's Retry-After, for as long as the page is open.
 */
export function serviceBusyRetry(
  error: unknown,
  _key: string,
  _config: unknown,
  revalidate: (options: { retryCount: number }) => unknown,
  options: { retryCount: number },
): void {
  setTimeout(() => void revalidate({ retryCount: options.retryCount }), serviceBusyDelayMs(error, options.retryCount));
}

/** For form alerts: the server's message when it sent one, else the given fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? fallback;
  return fallback;
}
