import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createSandboxApp } from '../../src/app';
import type { SandboxOptions } from '../../src/config';

export const KEYSTRING = 'sandbox-keystring';
export const API_KEY = 'sandbox-keystring:sandbox-shared-secret';
export const REDIRECT_URI = 'http://localhost:5000/api/connections/etsy/callback';
export const ADMIN = { authorization: 'Bearer sandbox-admin' };
/** A fixed "now" for deterministic data: 2026-06-15 12:00:00 UTC. */
export const START_MS = Date.UTC(2026, 5, 15, 12, 0, 0);

export class Clock {
  ms = START_MS;
  readonly now = () => this.ms;
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
}

export async function newSandbox(
  overrides: Partial<SandboxOptions> = {},
): Promise<{ app: FastifyInstance; clock: Clock }> {
  const clock = new Clock();
  const app = createSandboxApp({ now: clock.now, defaultTenant: false, ...overrides });
  await app.ready();
  return { app, clock };
}

export interface TenantInfo {
  tenantId: string;
  etsy: { userId: number; shopId: number; shopName: string; loginName: string; currency: string };
  printify: { token: string; accountId: number; shops: Array<{ id: number; title: string; sales_channel: string }> };
  orders: number;
}

/** Creates a tenant; its data is seeded ('kit' unless the body names a seed), so tests are repeatable. */
export async function createTenant(app: FastifyInstance, body: Record<string, unknown> = {}): Promise<TenantInfo> {
  const res = await app.inject({
    method: 'POST',
    url: '/__sandbox/tenants',
    headers: ADMIN,
    payload: { seed: 'kit', ...body },
  });
  if (res.statusCode !== 201) throw new Error(`tenant not created: ${res.statusCode} ${res.body}`);
  return res.json<TenantInfo>();
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function form(fields: Record<string, string>): { headers: Record<string, string>; payload: string } {
  return {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  };
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: string;
}

/** Connects a tenant's Etsy user through the admin grant and the real token endpoint. */
export async function connectEtsy(
  app: FastifyInstance,
  tenantId: string,
  scope = 'transactions_r shops_r',
): Promise<Tokens> {
  const { verifier, challenge } = pkce();
  const grant = await app.inject({
    method: 'POST',
    url: `/__sandbox/tenants/${tenantId}/grant`,
    headers: ADMIN,
    payload: {
      clientId: KEYSTRING,
      redirectUri: REDIRECT_URI,
      scope,
      state: 'st-1',
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
    },
  });
  if (grant.statusCode !== 200) throw new Error(`grant failed: ${grant.body}`);
  const token = await app.inject({
    method: 'POST',
    url: '/v3/public/oauth/token',
    ...form({
      grant_type: 'authorization_code',
      client_id: KEYSTRING,
      redirect_uri: REDIRECT_URI,
      code: grant.json<{ code: string }>().code,
      code_verifier: verifier,
    }),
  });
  if (token.statusCode !== 200) throw new Error(`token exchange failed: ${token.body}`);
  return token.json<Tokens>();
}

export function etsyGet(
  app: FastifyInstance,
  url: string,
  accessToken?: string,
  apiKey = API_KEY,
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { 'x-api-key': apiKey };
  if (accessToken) headers.authorization = `Bearer ${accessToken}`;
  return app.inject({ method: 'GET', url, headers });
}

export function printifyGet(
  app: FastifyInstance,
  url: string,
  token: string,
  userAgent: string | null = 'podprofit-tests',
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  // light-my-request adds its own User-Agent unless one is given: '' stands for "none".
  headers['user-agent'] = userAgent ?? '';
  return app.inject({ method: 'GET', url, headers });
}

export interface ReceivedDelivery {
  headers: Record<string, string | string[] | undefined>;
  /** The raw body, exactly as sent (signatures are over these bytes). */
  body: string;
  status: number;
}

/**
 * A loopback HTTP server standing in for a webhook receiver: it records every delivery and
 * answers each with what `answer` returns (200 unless told otherwise).
 */
export async function startReceiver(): Promise<{
  url: string;
  received: ReceivedDelivery[];
  answer: (next: (delivery: Omit<ReceivedDelivery, 'status'>) => number) => void;
  waitFor: (count: number, timeoutMs?: number) => Promise<ReceivedDelivery[]>;
  close: () => Promise<void>;
}> {
  const received: ReceivedDelivery[] = [];
  let answer: (delivery: Omit<ReceivedDelivery, 'status'>) => number = () => 200;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const delivery = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      const status = answer(delivery);
      received.push({ ...delivery, status });
      res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer: (next) => {
      answer = next;
    },
    async waitFor(count, timeoutMs = 5_000) {
      const until = Date.now() + timeoutMs;
      while (received.length < count && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
