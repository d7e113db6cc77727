import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import type { HealthReport } from './health-report';

/**
 * A plain node:http server for the orchestrator's probes, apart from any job work:
 * - GET /healthz (readiness): 200 when PostgreSQL, Redis and the worker are all fine, else 503.
 * - GET /livez (liveness): 200 while the process serves requests. Point liveness here, not at
 *   /healthz: a Redis outage must not get workers restarted in a loop; they recover by themselves.
 * - GET /metrics: the process's Prometheus metrics, when given. The server binds HEALTH_HOST
 *   (loopback unless a container sets 0.0.0.0), never a public port of the product.
 */
export class HealthServer {
  private server?: Server;

  constructor(
    private readonly report: () => Promise<HealthReport>,
    private readonly logger: Logger,
    private readonly metrics?: () => Promise<{ contentType: string; body: string }>,
  ) {}

  /** Binds host:port and answers the address the OS actually bound (port 0 picks a free one). */
  async listen(port: number, host: string): Promise<{ host: string; port: number }> {
    const server = createServer((request, response) => {
      const path = (request.url ?? '').split('?')[0];
      const send = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
        response.end(JSON.stringify(body));
      };
      if (request.method !== 'GET' && request.method !== 'HEAD')
        return send(405, { status: 'error', message: 'Method Not Allowed' });
      if (path === '/livez') return send(200, { status: 'ok' });
      if (path === '/metrics' && this.metrics) {
        this.metrics().then(
          ({ contentType, body }) => {
            response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
            response.end(request.method === 'HEAD' ? undefined : body);
          },
          (error: unknown) => {
            this.logger.error({ err: error, event: 'metrics.failed' }, 'metrics collection failed');
            send(500, { status: 'error', message: 'metrics collection failed' });
          },
        );
        return;
      }
      if (path !== '/healthz') return send(404, { status: 'error', message: 'Not Found' });
      this.report().then(
        (report) => send(report.httpStatus, report.body),
        (error: unknown) => {
          this.logger.error({ err: error, event: 'health.failed' }, 'health check failed');
          send(503, { status: 'error', message: 'health check failed' });
        },
      );
    });
    // Probes are short; keep-alive sockets would only delay close() at shutdown.
    server.keepAliveTimeout = 1_000;
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (error) =>
      this.logger.error({ err: error, event: 'health.server_error' }, 'health server error'),
    );
    const address = server.address();
    return typeof address === 'object' && address ? { host: address.address, port: address.port } : { host, port };
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server?.listening) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
