import { startTestStack } from '@pod/testing';

// How the browser tests reach a server: `startTestStack()` from @pod/testing (a fresh
// database and the built gateway serving web/dist on a free port). Setting E2E_BASE_URL
// points the tests at an already running server instead (local debugging only).

export interface RunningStack {
  baseUrl: string;
  /** The stack's own database (undefined against E2E_BASE_URL). */
  databaseUrl?: string;
  stop(): Promise<void>;
}

export async function startStack(env: Record<string, string> = {}): Promise<RunningStack> {
  const external = process.env.E2E_BASE_URL;
  if (external) return { baseUrl: external.replace(/\/$/, ''), stop: async () => undefined };
  const stack = await startTestStack(env);
  return { baseUrl: stack.baseUrl.replace(/\/$/, ''), databaseUrl: stack.database.url, stop: () => stack.stop() };
}
