// @pod/config's settings class carries decorators that need the metadata API loaded first.
import 'reflect-metadata';
import { readOrCreateLocalSandboxAdminToken } from '@pod/config';
import { createSandboxApp } from './app';
import { readSandboxOptions, realEtsyCredentials, SandboxConfigError } from './config';

/**
 * `npm run start:sandbox`: the simulated Etsy, Printify and ECB on one host (loopback by
 * default). It refuses to start when real Etsy credentials are configured; `npm start` passes
 * --idle-when-live, so there it idles (serving nothing) instead of ending the whole group.
 */
async function main(): Promise<void> {
  if (realEtsyCredentials()) {
    const message = 'real Etsy credentials are configured (ETSY_API_KEY, ETSY_SHARED_SECRET): the sandbox does not run';
    if (!process.argv.includes('--idle-when-live')) {
      process.stderr.write(`sandbox: ${message}.\n`);
      process.exit(1);
    }
    // Under `npm start` (concurrently -k), exiting would stop every process: stay idle instead,
    // serving nothing, until the others stop.
    process.stdout.write(
      `${JSON.stringify({ level: 'info', service: 'sandbox', msg: `${message}; idle, no port opened` })}\n`,
    );
    const idle = setInterval(() => undefined, 1 << 30);
    for (const signal of ['SIGTERM', 'SIGINT'] as const)
      process.on(signal, () => (clearInterval(idle), process.exit(0)));
    return;
  }
  let options;
  try {
    // On loopback without SANDBOX_ADMIN_TOKEN: the token generated into .data (the gateway reads it too).
    options = readSandboxOptions(process.env, readOrCreateLocalSandboxAdminToken);
  } catch (error) {
    if (error instanceof SandboxConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const app = createSandboxApp(options);
  const address = await app.listen({ host: options.host, port: options.port });
  process.stdout.write(
    `${JSON.stringify({ level: 'info', service: 'sandbox', msg: `sandbox listening on ${address}`, etsy: `${address}/v3`, consent: `${address}/oauth/connect`, printify: `${address}/v1`, ecb: `${address}/stats/eurofxref/`, admin: `${address}/__sandbox/` })}\n`,
  );
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`${JSON.stringify({ level: 'info', service: 'sandbox', msg: `${signal}: stopping` })}\n`);
    const timer = setTimeout(() => process.exit(1), 5_000);
    timer.unref();
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

void main();
