// Docker HEALTHCHECK for every PodProfit process: exits 0 when GET /healthz (or the path given,
// see below) answers 200.
// Slim images have no curl, so node does it. The port follows $APP: the gateway serves
// /healthz and /livez on PORT, each worker on its own HEALTH_PORT.
//
// /healthz (the default) is readiness: 503 while PostgreSQL or Redis is down. It is what the
// image's HEALTHCHECK and so compose's `depends_on: condition: service_healthy` use. For a
// platform that restarts unhealthy containers, check liveness instead, so a dependency outage
// does not restart healthy processes in a loop: `node healthcheck.cjs /livez`.
'use strict';
const http = require('node:http');

const WORKER_HEALTH_PORTS = { 'etsy-sync': 5101, 'printify-sync': 5102, matcher: 5103, 'fx-rate': 5104 };
const app = process.env.APP || 'gateway';
const path = process.argv[2] || '/healthz';
if (path !== '/healthz' && path !== '/livez') {
  process.stderr.write(`healthcheck: unknown path '${path}' (/healthz or /livez)\n`);
  process.exit(1);
}

if (app === 'migrate') {
  // A one-shot job: it is done when it exits, and has nothing to probe.
  process.exit(0);
}

let port;
if (app === 'gateway') port = Number(process.env.PORT || 5000);
else if (app in WORKER_HEALTH_PORTS) port = Number(process.env.HEALTH_PORT || WORKER_HEALTH_PORTS[app]);
else {
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
