import { vi } from 'vitest';

/** One call the component made, as the server would see it. */
export interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
}

type Answer = { status: number; body?: unknown };

/**
 * Stubs `fetch` at the network boundary: each request is recorded and answered by `route`
 * (a real `Response`, so the app's client parses status and body as it does in the browser).
 */
export function stubNetwork(route: (call: RecordedCall) => Answer | Promise<Answer>) {
  const calls: RecordedCall[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const call = {
      method: (init.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const answer = await route(call);
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  return calls;
}

/** The gateway's error body shape (ApiErrorBody). */
export function apiError(status: number, code: string, message: string, field?: string): Answer {
  return { status, body: { statusCode: status, error: 'Error', message, code, ...(field ? { field } : {}) } };
}
