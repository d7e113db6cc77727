import 'reflect-metadata';
import type { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import Redis from 'ioredis';
import { Logger as NestPinoLogger } from 'nestjs-pino';
import { loadConfigOrExit } from '@pod/config';
import type { QueueName } from '@pod/contracts';
import { createDataSource } from '@pod/db';
import { createLogger, ProcessMetrics } from '@pod/observability';
import { probeConnection } from '@pod/queue';
import { armHardStop, guardProcess } from './shutdown';
import { WORKER_HEALTH_PORTS, type WorkerService } from './worker-identity';
import { WorkerLifecycle } from './worker-lifecycle';
import { WorkerRootModule } from './worker-root.module';

export interface RunWorkerOptions {
  service: WorkerService;
  queue: QueueName;
  /** The worker's own Nest module, providing its ContractProcessor. */
  module: Type<unknown>;
}

/**
 * The one bootstrap of every worker process: config, logger, Nest application context,
 * health endpoint, a paused BullMQ worker started once its dependencies answer, and a
 * bounded graceful shutdown. Exits 1 if the worker cannot start.
 */
export async function runWorker(options: RunWorkerOptions): Promise<void> {
  const config = loadConfigOrExit({ HEALTH_PORT: String(WORKER_HEALTH_PORTS[options.service]) });
  const logger = createLogger(config, { service: options.service });
  guardProcess(logger);
  try {
    const hardStop = armHardStop(logger, config.SHUTDOWN_TIMEOUT_MS);
    const resources = {
      ...options,
      config,
      logger,
      dataSource: createDataSource(config, `podprofit-${options.service}`),
      redisProbe: new Redis(probeConnection(config)),
      metrics: new ProcessMetrics({ service: options.service }),
    };
    // Reported by the health check; without a listener ioredis prints every reconnect failure.
    resources.redisProbe.on('error', () => undefined);
    const app = await NestFactory.createApplicationContext(WorkerRootModule.forWorker(resources, options.module), {
      bufferLogs: true,
      abortOnError: false,
    });
    app.useLogger(app.get(NestPinoLogger));
    app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
    hardStop.hooksEnabled();
    await app.get(WorkerLifecycle).start();
  } catch (error) {
    logger.fatal({ err: error, event: 'worker.boot_failed' }, 'worker failed to start');
    process.exit(1);
  }
}
