// Docker HEALTHCHECK for every PodProfit process: exits 0 when GET /healthz answers 200.
// Slim images have no curl, so node does it. The port follows $APP: the gateway serves
// /healthz on PORT, each worker on its own HEALTH_PORT.
'use strict';
const http = require('node:http');

const WORKER_HEALTH_PORTS = { 'etsy-sync': 5101, 'printify-sync': 5102, matcher: 5103, 'fx-rate': 5104 };
const app = process.env.APP || 'gateway';

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

const req = http.get({ host: '127.0.0.1', port, path: '/healthz', timeout: 4000 }, (res) => {
  res.resume();
  process.exit(res.statusCode === 200 ? 0 : 1);
});
req.on('timeout', () => req.destroy(new Error('timed out')));
req.on('error', (error) => {
  process.stderr.write(`healthcheck: ${error.message}\n`);
  process.exit(1);
});
