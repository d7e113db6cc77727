import { startTestStack } from '@pod/testing';

// How the browser tests reach a server: `startTestStack()` from @pod/testing (a fresh
// database and the built gateway serving web/dist on a free port). Setting E2E_BASE_URL
// points the tests at an already running server instead (local debugging only).

export interface RunningStack {
  baseUrl: string;
  stop(): Promise<void>;
}

export async function startStack(): Promise<RunningStack> {
  const external = process.env.E2E_BASE_URL;
  if (external) return { baseUrl: external.replace(/\/$/, ''), stop: async () => undefined };
  const stack = await startTestStack();
  return { baseUrl: stack.baseUrl.replace(/\/$/, ''), stop: () => stack.stop() };
}
