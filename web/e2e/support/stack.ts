import { startTestStack, type TestSandbox, type TestStackOptions } from '@pod/testing';

// How the browser tests reach a server: `startTestStack()` from @pod/testing (a fresh
// database and the built gateway serving web/dist on a free port). Setting E2E_BASE_URL
// points the tests at an already running server instead (local debugging only).

export interface RunningStack {
  baseUrl: string;
  /** The stack's own database (undefined against E2E_BASE_URL). */
  databaseUrl?: string;
  /** The sandbox, when the stack was started with one. */
  sandbox?: TestSandbox;
  stop(): Promise<void>;
}

export async function startStack(
  env: Record<string, string> = {},
  options: TestStackOptions = {},
): Promise<RunningStack> {
  const external = process.env.E2E_BASE_URL;
  if (external) return { baseUrl: external.replace(/\/$/, ''), stop: async () => undefined };
  const stack = await startTestStack(env, options);
  return {
    baseUrl: stack.baseUrl.replace(/\/$/, ''),
    databaseUrl: stack.database.url,
    sandbox: stack.sandbox,
    stop: () => stack.stop(),
  };
}
