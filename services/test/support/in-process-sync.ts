import type { FastifyInstance } from 'fastify';
import { Queue, QueueEvents, Worker, type Job } from 'bullmq';
import type { DataSource } from 'typeorm';
import { createDataSource, prepareDatabase, type SyncRun } from '@pod/db';
import {
  createPkcePair,
  EtsyClient,
  PrintifyClient,
  type EtsyAuth,
  type FetchLike,
  type PrintifyAuth,
  type RateLimiter,
} from '@pod/integrations';
import { InMemoryRateLimiter } from '@pod/testing/oracles';
import type { SyncRunPayload } from '@pod/queue';
import { SyncRunner, type SyncStream } from '@pod/sync';
import { createTestDatabase, queryDatabase, uniqueRedisPrefix, type TestDatabase } from '@pod/testing';
import { createSandboxApp } from '../../sandbox/src/app';
import type { SandboxOptions } from '../../sandbox/src/config';

export const REDIRECT = 'http://127.0.0.1:1/api/connections/etsy/callback';
const KEYSTRING = 'sandbox-keystring';
const SHARED_SECRET = 'sandbox-shared-secret';
const connection = { host: '127.0.0.1', port: 6379, maxRetriesPerRequest: null };

export interface SandboxSeller {
  tenantId: string;
  etsy: { shopId: number; currency: string };
  printify: { token: string; accountId: string | number; shops: { id: number }[] };
}

/**
 * The provider streams' test bed, all in this process: a fresh database, the sandbox as a
 * server with one seller, the real Etsy and Printify clients granted access to it, and a BullMQ
 * worker running SyncRunner over the streams the test builds. Streams and assertions are the
 * test's own.
 */
export class InProcessSyncBed {
  database!: TestDatabase;
  dataSource!: DataSource;
  sandboxUrl = '';
  seller!: SandboxSeller;
  etsy!: EtsyClient;
  printify!: PrintifyClient;
  etsyAuth!: EtsyAuth;
  printifyAuth!: PrintifyAuth;
  /** The seller's Etsy access token (for requests made around the clients). */
  accessToken = '';
  queue!: Queue<SyncRunPayload>;
  events!: QueueEvents;
  private sandbox?: FastifyInstance;
  private worker?: Worker<SyncRunPayload>;
  private queueName = '';
  private prefix = '';
  private readonly adminToken: string;

  constructor(private readonly label: string) {
    this.adminToken = `${label}-admin`;
  }

  /**
   * `sandbox`: settings of the sandbox; `seller`: the tenant to create; `attempts` per sync job;
   * `clientDeps`: the clients' fetch and limiter (an in-memory limiter by default).
   */
  async start(options: {
    sandbox?: Partial<SandboxOptions>;
    seller: Record<string, unknown>;
    attempts: number;
    clientLimits?: { etsyPerSecond: number; printifyPerMinute: number };
    clientDeps?: { fetch?: FetchLike; limiter?: RateLimiter };
  }): Promise<void> {
    this.database = await createTestDatabase(this.label);
    await prepareDatabase({ DATABASE_URL: this.database.url });
    this.dataSource = await createDataSource(
      { DATABASE_URL: this.database.url, DATABASE_POOL_SIZE: 6 },
      `${this.label}-test`,
    ).initialize();
    this.sandbox = createSandboxApp({
      port: 0,
      adminToken: this.adminToken,
      defaultTenant: false,
      etsyApp: { keystring: KEYSTRING, sharedSecret: SHARED_SECRET, name: 'PodProfit', redirectUris: [REDIRECT] },
      ...options.sandbox,
    });
    this.sandboxUrl = await this.sandbox.listen({ host: '127.0.0.1', port: 0 });
    this.seller = await this.admin<SandboxSeller>('POST', '/tenants', options.seller);
    const deps = { limiter: new InMemoryRateLimiter(), ...options.clientDeps };
    const limits = options.clientLimits;
    this.etsy = new EtsyClient(
      {
        apiUrl: this.sandboxUrl,
        keystring: KEYSTRING,
        sharedSecret: SHARED_SECRET,
        redirectUri: REDIRECT,
        perSecondLimit: limits?.etsyPerSecond,
      },
      deps,
    );
    this.printify = new PrintifyClient({ apiUrl: this.sandboxUrl, perMinuteLimit: limits?.printifyPerMinute }, deps);
    const pkce = createPkcePair();
    const grant = await this.admin<{ code: string }>('POST', `/tenants/${this.seller.tenantId}/grant`, {
      clientId: KEYSTRING,
      redirectUri: REDIRECT,
      scope: 'transactions_r shops_r',
      state: `${this.label}-state`,
      codeChallenge: pkce.challenge,
      codeChallengeMethod: 'S256',
    });
    const tokens = await this.etsy.exchangeCode({ code: grant.code, codeVerifier: pkce.verifier });
    this.accessToken = tokens.accessToken;
    this.etsyAuth = {
      connectionKey: this.label,
      getAccessToken: async () => tokens.accessToken,
      refreshAfterUnauthorized: async () => tokens.accessToken,
    };
    this.printifyAuth = { token: this.seller.printify.token, accountKey: String(this.seller.printify.accountId) };
    const prefix = uniqueRedisPrefix(this.label);
    const queueName = `sync-${this.label}`;
    this.queue = new Queue<SyncRunPayload>(queueName, {
      connection,
      prefix,
      defaultJobOptions: { attempts: options.attempts, backoff: { type: 'fixed', delay: 100 } },
    });
    this.events = new QueueEvents(queueName, { connection, prefix });
    await this.events.waitUntilReady();
    this.queueName = queueName;
    this.prefix = prefix;
  }

  /** Starts the worker: each job's run walks the streams `streamsFor` gives. */
  runStreams(streamsFor: (run: SyncRun) => SyncStream<unknown>[]): void {
    const runner = new SyncRunner({
      dataSource: this.dataSource,
      markConnection: async () => undefined,
      publish: async () => undefined,
      queueMatch: async () => undefined,
      logger: { info: () => undefined, warn: () => undefined },
      shutdown: new AbortController().signal,
    });
    this.worker = new Worker<SyncRunPayload>(
      this.queueName,
      (job: Job<SyncRunPayload>, token?: string) => runner.run(job, token, async (run) => streamsFor(run)),
      {
        connection,
        prefix: this.prefix,
        concurrency: 2,
      },
    );
  }

  /**
   * One statement as the database's login, to inspect or prepare what the code under test (on
   * `dataSource`, the runtime role, under row-level security) stores.
   */
  sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
    return queryDatabase<T>(this.database.url, text, params);
  }

  async admin<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.sandboxUrl}/__sandbox${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.adminToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`sandbox ${method} ${path}: ${response.status} ${await response.text()}`);
    return (response.status === 204 ? undefined : await response.json()) as T;
  }

  async stop(): Promise<void> {
    await this.worker?.close();
    await this.queue?.obliterate({ force: true }).catch(() => undefined);
    await Promise.all([this.queue?.close(), this.events?.close()]);
    await this.sandbox?.close();
    await this.dataSource?.destroy();
    await this.database?.drop();
  }
}
