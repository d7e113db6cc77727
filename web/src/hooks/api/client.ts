// The one fetcher and the one mutation helper. Every call sends the session cookie; every
// non-OK answer becomes an ApiError whose message is "status: body" (or the status text
// when the body is empty).

export class ApiError extends Error {
  readonly status: number;
  readonly bodyText: string;

  constructor(status: number, statusText: string, bodyText: string) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = 'ApiError';
    this.status = status;
    this.bodyText = bodyText;
  }

  /** The `message` of the server's JSON error body ({statusCode, error, message}), if any. */
  get serverMessage(): string | undefined {
    try {
      const parsed: unknown = JSON.parse(this.bodyText);
      if (parsed && typeof parsed === 'object' && 'message' in parsed) {
        const { message } = parsed as { message: unknown };
        if (typeof message === 'string' && message.trim()) return message;
        if (Array.isArray(message) && typeof message[0] === 'string') return message[0];
      }
    } catch {
      // not JSON
    }
    return undefined;
  }
}

async function ensureOk(response: Response): Promise<Response> {
  if (response.ok) return response;
  const bodyText = await response.text().catch(() => '');
  throw new ApiError(response.status, response.statusText, bodyText);
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

/** For form alerts: the server's message when it sent one, else the given fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) return error.serverMessage ?? fallback;
  return fallback;
}
