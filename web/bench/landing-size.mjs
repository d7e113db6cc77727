#!/usr/bin/env node
// Bytes on the wire for a first visit to the landing page: starts the built gateway (as the
// browser tests do: a fresh database and Redis prefix, web/dist served by the gateway), opens
// / in Chromium with an empty profile, and prints what each response cost on the wire
// (headers + encoded body, CDP Network.loadingFinished.encodedDataLength) and the total.
//
//   npm run bench:landing                 builds if needed, then measures
//   node web/bench/landing-size.mjs --url http://127.0.0.1:5000 [--path /login] [--json]
//
// Needs what the browser tests need: PostgreSQL (TEST_DATABASE_SERVER_URL, default
// postgres://postgres@127.0.0.1:5432), Redis (REDIS_URL, default redis://127.0.0.1:6379) and
// Chromium at /usr/bin/chromium (or CHROMIUM_PATH).
/* global document -- page.waitForFunction and page.evaluate bodies run in the browser */
import { execSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { chromium } from 'playwright-core';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The browser tests' flags (web/e2e/support/chromium-flags.json): no calls out, no GPU, root-safe.
const CHROMIUM_ARGS = createRequire(import.meta.url)('../e2e/support/chromium-flags.json');
/** How long nothing may be on the wire before the first load counts as finished. */
const QUIET_MS = 1_000;
const DATABASE_SERVER_URL = process.env.TEST_DATABASE_SERVER_URL ?? 'postgres://postgres@127.0.0.1:5432';

function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

async function adminQuery(sql) {
  const client = new pg.Client({ connectionString: `${DATABASE_SERVER_URL}/postgres` });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function waitForHealth(baseUrl, child, logs) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the gateway exited early:\n${logs().slice(-3000)}`);
    try {
      const response = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the gateway did not become healthy:\n${logs().slice(-3000)}`);
}

/** The built gateway on a free port with its own empty database; returns its URL and a stop(). */
async function startGateway() {
  if (!existsSync(join(ROOT, 'dist/gateway/src/main.js')) || !existsSync(join(ROOT, 'web/dist/index.html'))) {
    console.error('No build found: running npm run build first.');
    execSync('npm run build', { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  }
  const database = `podprofit_bench_${randomBytes(5).toString('hex')}`;
  await adminQuery(`CREATE DATABASE "${database}"`);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [join(ROOT, 'dist/gateway/src/main.js')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      // Not production: that adds upgrade-insecure-requests, and this server is plain http.
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      DATABASE_URL: `${DATABASE_SERVER_URL}/${database}`,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_PREFIX: `bench_${randomBytes(4).toString('hex')}`,
      APP_SECRET: randomBytes(32).toString('hex'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    await adminQuery(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  };
  try {
    await waitForHealth(baseUrl, child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, stop };
}

/**
 * Loads `url` in a fresh Chromium profile and records every response: its path, status,
 * Content-Encoding and the bytes it took on the wire. Waits for the network to go quiet.
 */
export async function measureFirstLoad(url) {
  const profile = mkdtempSync(join(tmpdir(), 'podprofit-bench-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const cdp = await context.newCDPSession(page);
    const requests = new Map();
    const inFlight = new Set();
    let lastActivity = Date.now();
    const settle = (requestId) => {
      inFlight.delete(requestId);
      lastActivity = Date.now();
    };
    cdp.on('Network.requestWillBeSent', ({ requestId, request }) => {
      requests.set(requestId, { url: request.url });
      inFlight.add(requestId);
      lastActivity = Date.now();
    });
    cdp.on('Network.responseReceived', ({ requestId, response }) => {
      const entry = requests.get(requestId);
      if (!entry) return;
      const header = Object.entries(response.headers).find(([name]) => name.toLowerCase() === 'content-encoding');
      Object.assign(entry, { status: response.status, encoding: header ? header[1] : '', mimeType: response.mimeType });
    });
    cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
      const entry = requests.get(requestId);
      if (entry) entry.bytes = encodedDataLength;
      settle(requestId);
    });
    cdp.on('Network.loadingFailed', ({ requestId, errorText }) => {
      const entry = requests.get(requestId);
      if (entry) Object.assign(entry, { bytes: 0, failed: errorText });
      settle(requestId);
    });
    await cdp.send('Network.enable');
    await page.goto(url, { waitUntil: 'load' });
    // The first load is over when the app has rendered its page (no loading state left), its
    // fonts are in, and nothing has been on the wire for a second.
    await page.waitForFunction(
      () => document.querySelector('#root main') && !document.querySelector('[aria-busy="true"]'),
      undefined,
      { timeout: 30_000 },
    );
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    const deadline = Date.now() + 30_000;
    while (inFlight.size > 0 || Date.now() - lastActivity < QUIET_MS) {
      if (Date.now() > deadline) throw new Error(`the network never went quiet (${inFlight.size} requests open)`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const resources = [...requests.values()]
      .filter((entry) => entry.bytes !== undefined && !entry.url.startsWith('data:'))
      .map((entry) => ({ ...entry, path: new URL(entry.url).pathname }));
    return { url, resources, totalBytes: resources.reduce((sum, entry) => sum + entry.bytes, 0) };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

function printTable({ url, resources, totalBytes }) {
  const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(`First load of ${url} (bytes on the wire: headers + encoded body)\n`);
  console.log(`${'bytes'.padStart(9)}  ${'KB'.padStart(9)}  ${'status'.padEnd(6)}  ${'encoding'.padEnd(8)}  resource`);
  for (const entry of resources) {
    const note = entry.failed ? ` (failed: ${entry.failed})` : '';
    console.log(
      `${String(entry.bytes).padStart(9)}  ${kb(entry.bytes).padStart(9)}  ${String(entry.status ?? '').padEnd(6)}  ${(entry.encoding || '-').padEnd(8)}  ${entry.path}${note}`,
    );
  }
  console.log(`${String(totalBytes).padStart(9)}  ${kb(totalBytes).padStart(9)}  total, ${resources.length} responses`);
}

async function main() {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      path: { type: 'string', default: '/' },
      json: { type: 'boolean', default: false },
    },
  });
  const gateway = values.url
    ? { baseUrl: values.url.replace(/\/$/, ''), stop: async () => undefined }
    : await startGateway();
  try {
    const result = await measureFirstLoad(`${gateway.baseUrl}${values.path}`);
    if (values.json) console.log(JSON.stringify(result));
    else printTable(result);
  } finally {
    await gateway.stop();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
