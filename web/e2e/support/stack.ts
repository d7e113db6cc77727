// How the browser tests reach a server. Normally `startTestStack()` from @pod/testing
// (a fresh database and the built gateway serving web/dist on a free port). Setting
// E2E_BASE_URL points the tests at an already running server instead (for local debugging).

export interface RunningStack {
  baseUrl: string;
  stop(): Promise<void>;
}

interface TestingModule {
  startTestStack(): Promise<{ baseUrl: string; stop(): Promise<void> | void }>;
}

export async function startStack(): Promise<RunningStack> {
  const external = process.env.E2E_BASE_URL;
  if (external) return { baseUrl: external.replace(/\/$/, ''), stop: async () => undefined };
  // Resolved at run time (Jest maps @pod/testing to libs/testing/src).
  const moduleName = '@pod/testing';
  const testing = (await import(moduleName)) as TestingModule;
  const stack = await testing.startTestStack();
  return { baseUrl: stack.baseUrl.replace(/\/$/, ''), stop: async () => void (await stack.stop()) };
}
