import { Global, Module } from '@nestjs/common';
import { QUEUE_NAMES } from '@pod/contracts';
import { ProcessMetrics } from '@pod/observability';
import { QueueRegistry } from '../queues/queue-registry';

/**
 * The gateway's Prometheus registry: its process metrics, the depth of every queue (read from
 * Redis at scrape time) and its own provider calls. Served only to operators, at
 * GET /api/admin/metrics (see AdminMetricsController); the workers serve theirs on their health port.
 */
@Global()
@Module({
  providers: [
    {
      provide: ProcessMetrics,
      inject: [QueueRegistry],
      useFactory: (queues: QueueRegistry) => {
        const metrics = new ProcessMetrics({ service: 'gateway' });
        metrics.watchQueues(() => QUEUE_NAMES.map((name) => queues.get(name)));
        return metrics;
      },
    },
  ],
  exports: [ProcessMetrics],
})
export class MetricsModule {}
