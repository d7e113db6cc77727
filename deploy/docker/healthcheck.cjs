// Docker HEALTHCHECK for every PodProfit process: exits 0 when GET /healthz (or the path given,
// see below) answers 200.
// Slim images have no curl, so node does it. The port follows $APP: the gateway serves
// /healthz and /livez on PORT, each worker on its own HEALTH_PORT, the sandbox its one check,
// /__sandbox/healthz, on SANDBOX_PORT.
//
// /healthz (the default) is readiness: 503 while PostgreSQL or Redis is down. It is what the
// image's HEALTHCHECK and so compose's `depends_on: condition: service_healthy` use. For a
// platform that restarts unhealthy containers, check liveness instead, so a dependency outage
// does not restart healthy processes in a loop: `node healthcheck.cjs /livez`.
//
// The sandbox (APP=sandbox) has no dependencies and one check, so any of the three paths asks
// /__sandbox/healthz. Run with --idle-when-live and real Etsy credentials configured, it opens
// no port on purpose (live mode does not use it): then it counts as healthy without a request.
'use strict';
const http = require('node:http');

const WORKER_HEALTH_PORTS = { 'etsy-sync': 5101, 'printify-sync': 5102, matcher: 5103, 'fx-rate': 5104 };
const SANDBOX_HEALTH_PATH = '/__sandbox/healthz';
const app = process.env.APP || 'gateway';
let path = process.argv[2] || '/healthz';
if (path !== '/healthz' && path !== '/livez' && !(app === 'sandbox' && path === SANDBOX_HEALTH_PATH)) {
  process.stderr.write(
    `healthcheck: unknown path '${path}' (/healthz or /livez${app === 'sandbox' ? ` or ${SANDBOX_HEALTH_PATH}` : ''})\n`,
  );
  process.exit(1);
}

if (app === 'migrate') {
  // A one-shot job: it is done when it exits, and has nothing to probe.
  process.exit(0);
}

/** The sandbox's own rule (services/sandbox/src/config.ts, realEtsyCredentials). */
function realEtsyCredentials(env) {
  const keystring = env.ETSY_API_KEY || '';
  if (keystring === '' || !env.ETSY_SHARED_SECRET) return false;
  return keystring !== (env.SANDBOX_ETSY_KEYSTRING || 'sandbox-keystring');
}

let port;
if (app === 'gateway') port = Number(process.env.PORT || 5000);
else if (app in WORKER_HEALTH_PORTS) port = Number(process.env.HEALTH_PORT || WORKER_HEALTH_PORTS[app]);
else if (app === 'sandbox') {
  // Idle in live mode (or, without --idle-when-live, already exited): nothing to ask.
  if (realEtsyCredentials(process.env)) process.exit(0);
  port = Number(process.env.SANDBOX_PORT || 5200);
  path = SANDBOX_HEALTH_PATH;
} else {
  process.stderr.write(`healthcheck: unknown APP '${app}'\n`);
  process.exit(1);
}

const req = http.get({ host: '127.0.0.1', port, path, timeout: 4000 }, (res) => {
  res.resume();
  process.exit(res.statusCode === 200 ? 0 : 1);
});
req.on('timeout', () => req.destroy(new Error('timed out')));
req.on('error', (error) => {
  process.stderr.write(`healthcheck: ${error.message}\n`);
  process.exit(1);
});
