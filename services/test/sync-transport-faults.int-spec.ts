import type { DataSource } from 'typeorm';
import { SyncRunsRepository } from '@pod/db';
import type { FetchLike } from '@pod/integrations';
import { DEFAULT_LOOKBACKS, etsyLedgerStream, etsyReceiptsStream, userMessageFor, type SyncStream } from '@pod/sync';
import { freePort } from '@pod/testing';
import { InProcessSyncBed, REDIRECT } from './support/in-process-sync';
import { diffVersions, SourceOracle, storedVersions } from './support/sync-fleet';

/**
 * Security plan item 12's transport faults that need no sandbox knob, beside the knob-driven
 * ones of gateway/test/sync-provider-faults.int-spec.ts (500/502/503/504, malformed JSON, HTML
 * pages, resets, truncated bodies): a connection refused (nothing listening) and a host that
 * does not resolve (`.invalid`, RFC 6761). After a few pages of a real sync the clients' fetch
 * is sent to a closed port or an unresolvable name (the failure is the system's own:
 * ECONNREFUSED, ENOTFOUND), through the real request function, SyncRunner, BullMQ and PostgreSQL.
 * As the existing classification says (libs/integrations/src/http/body.ts: never sent, so
 * always safe to retry; a retryable transport_error): retried with jittered exponential
 * back-off, at most 5 calls; the sync completes if the host returns meanwhile; if not, the run
 * fails with a user-safe provider_unavailable, the cursor where the last committed page left
 * it, and the next sync resumes from there once the host is back.
 */
const bed = new InProcessSyncBed('transport');
/** The request function's first back-off ceiling (it doubles per attempt; full jitter). */
const BACKOFF_BASE_MS = 1_000;
const SLACK_MS = 300;
let dataSource: DataSource;
let deadPort: number;
let users = 0;

type Mode = 'through' | 'refused' | 'unresolvable';

/** The clients' fetch, sent where the test says: the sandbox, a port nothing listens on, or a name no resolver knows. */
class TransportSwitch {
  mode: Mode = 'through';
  /** Successful calls before the fault starts (counted from `arm`), and refused calls after which the host returns (null: never). */
  private plan: { after: number; returnAfter: number | null; fault: Mode } | null = null;
  private answered = 0;
  readonly failures: { code: string | undefined; atMs: number }[] = [];

  arm(fault: Mode, after: number, returnAfter: number | null): void {
    this.plan = { after, returnAfter, fault };
    this.answered = 0;
    this.failures.length = 0;
    this.mode = 'through';
  }

  readonly fetch: FetchLike = async (url, init) => {
    if (this.plan && this.mode === 'through' && this.answered >= this.plan.after && this.failures.length === 0)
      this.mode = this.plan.fault;
    const target = new URL(url);
    if (this.mode === 'refused') target.port = String(deadPort);
    if (this.mode === 'unresolvable') target.hostname = 'sandbox.invalid';
    try {
      const response = await fetch(target.toString(), init);
      this.answered += 1;
      return response;
    } catch (error) {
      if (this.mode === 'through') throw error;
      this.failures.push({ code: (error as { cause?: { code?: string } }).cause?.code, atMs: Date.now() });
      if (this.plan?.returnAfter !== null && this.failures.length >= (this.plan?.returnAfter ?? Infinity))
        this.mode = 'through';
      throw error;
    }
  };
}

const transport = new TransportSwitch();

function streamsFor(): SyncStream<unknown>[] {
  const deps = { dataSource, lookbacks: DEFAULT_LOOKBACKS, now: Date.now, auth: bed.etsyAuth };
  return [
    etsyReceiptsStream(bed.etsy, deps) as SyncStream<unknown>,
    etsyLedgerStream(bed.etsy, deps) as SyncStream<unknown>,
  ];
}

/** Seeding and reading back go through bed.sql, as the login: row-level security does not restrict it. */
async function newUser(): Promise<string> {
  users += 1;
  const [{ id }] = await bed.sql<{ id: string }>(
    `INSERT INTO app_user (email, password_hash, first_name, last_name) VALUES ($1, 'x', 'T', 'F') RETURNING id`,
    [`transport-${users}@test.invalid`],
  );
  return id;
}

async function syncEtsy(userId: string): Promise<{
  id: string;
  status: string;
  pages_done: number;
  error_code: string | null;
  error_message: string | null;
}> {
  const { run } = await new SyncRunsRepository(dataSource).startOrGetActive({
    userId,
    provider: 'etsy',
    shopId: String(bed.seller.etsy.shopId),
    trigger: 'user',
    mode: 'incremental',
  });
  const job = await bed.queue.add('sync', { runId: run.id }, { jobId: run.id });
  await job.waitUntilFinished(bed.events, 120_000).catch(() => undefined);
  const [row] = await bed.sql<{
    id: string;
    status: string;
    pages_done: number;
    error_code: string | null;
    error_message: string | null;
  }>(`SELECT id, status, pages_done, error_code, error_message FROM sync_run WHERE id = $1`, [run.id]);
  return row;
}

async function cursorMoves(userId: string): Promise<number> {
  const [{ moves }] = await bed.sql<{ moves: number }>(
    `SELECT coalesce(sum(version), 0)::int AS moves FROM sync_cursor WHERE user_id = $1`,
    [userId],
  );
  return moves;
}

async function expectReceiptsEqualSource(userId: string): Promise<void> {
  const oracle = await new SourceOracle(
    bed.sandboxUrl,
    (m, p, b) => bed.admin(m, p, b),
    bed.seller,
    REDIRECT,
  ).connect();
  expect(diffVersions(await oracle.receipts(), await storedVersions(bed.database.url, userId, 'receipts'))).toEqual({
    missing: [],
    extra: [],
    changed: [],
  });
}

/** Every gap between successive failed calls within the back-off ceiling of its attempt. */
function expectBackoff(failures: { atMs: number }[]): void {
  for (let k = 1; k < failures.length; k++)
    expect(failures[k].atMs - failures[k - 1].atMs).toBeLessThanOrEqual(BACKOFF_BASE_MS * 2 ** (k - 1) + SLACK_MS);
}

beforeAll(async () => {
  deadPort = await freePort();
  // One attempt per job: a fault that does not clear fails the run after one call's 5 tries.
  await bed.start({
    seller: { seed: 'transport', months: 2, ordersPerMonth: 150, printifyEnvelope: 'minimal' },
    attempts: 1,
    clientLimits: { etsyPerSecond: 200, printifyPerMinute: 6_000 },
    sandbox: { etsyQps: 200 },
    clientDeps: { fetch: transport.fetch },
  });
  dataSource = bed.dataSource;
  bed.runStreams(streamsFor);
}, 60_000);

afterAll(() => bed.stop());

jest.setTimeout(120_000);

const FAULTS = [
  { name: 'a refused connection (nothing listening)', mode: 'refused' as const, codes: ['ECONNREFUSED'] },
  { name: 'an unresolvable host', mode: 'unresolvable' as const, codes: ['ENOTFOUND', 'EAI_AGAIN'] },
];

describe('item 12: transport faults without a sandbox knob', () => {
  it.each(FAULTS)(
    '$name that clears after two calls is retried with back-off and the sync completes',
    async ({ mode, codes }) => {
      const userId = await newUser();
      transport.arm(mode, 3, 2);
      const run = await syncEtsy(userId);
      expect(run.status).toBe('succeeded');
      expect(transport.failures).toHaveLength(2);
      for (const failure of transport.failures) expect(codes).toContain(failure.code);
      expectBackoff(transport.failures);
      expect(await cursorMoves(userId)).toBe(run.pages_done);
      await expectReceiptsEqualSource(userId);
    },
  );

  it.each(FAULTS)(
    '$name that lasts: 5 calls, then the run fails with a user-safe error, the cursor stays, and the next sync resumes once the host is back',
    async ({ mode, codes }) => {
      const userId = await newUser();
      transport.arm(mode, 3, null);
      const failed = await syncEtsy(userId);
      expect(failed).toMatchObject({
        status: 'failed',
        error_code: 'provider_unavailable',
        error_message: userMessageFor('provider_unavailable', 'etsy'),
      });
      expect(transport.failures).toHaveLength(5);
      for (const failure of transport.failures) expect(codes).toContain(failure.code);
      expectBackoff(transport.failures);
      // Only the committed pages moved the cursor, and nothing moves it afterwards.
      const moves = await cursorMoves(userId);
      expect(moves).toBe(failed.pages_done);
      expect(failed.pages_done).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(await cursorMoves(userId)).toBe(moves);

      transport.arm('through', 0, null);
      const resumed = await syncEtsy(userId);
      expect(resumed.status).toBe('succeeded');
      expect(transport.failures).toEqual([]);
      await expectReceiptsEqualSource(userId);
    },
  );
});
