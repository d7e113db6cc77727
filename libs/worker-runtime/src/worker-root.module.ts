import { BullModule } from '@nestjs/bullmq';
import { Global, Module, type DynamicModule, type Type } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type Redis from 'ioredis';
import { LoggerModule } from 'nestjs-pino';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { AppConfig } from '@pod/config';
import { DATA_SOURCE_REPOSITORIES } from '@pod/db';
import type { ProcessMetrics } from '@pod/observability';
import { bullConnection, bullPrefix, DomainEventsModule } from '@pod/queue';
import { REDIS_PROBE, WORKER_LOGGER, WORKER_METRICS, WORKER_OPTIONS } from './tokens';
import { WorkerLifecycle, type WorkerLifecycleOptions } from './worker-lifecycle';

export interface WorkerResources extends WorkerLifecycleOptions {
  config: AppConfig;
  logger: Logger;
  dataSource: DataSource;
  redisProbe: Redis;
  /** The process's Prometheus registry: served on the health port, fed by the runtime and the worker's own code. */
  metrics: ProcessMetrics;
}

/**
 * What every worker's own module may inject: config, logger, the data source (its lifecycle;
 * queries go through the repositories of libs/db, also injectable here), the event publisher,
 * and the process's metrics (WORKER_METRICS: pass its hooks to the provider clients, the rate
 * limiter and SyncRunner).
 */
@Global()
@Module({})
class WorkerCoreModule {
  static forWorker(resources: WorkerResources): DynamicModule {
    return {
      module: WorkerCoreModule,
      imports: [DiscoveryModule, DomainEventsModule],
      providers: [
        { provide: AppConfig, useValue: resources.config },
        { provide: WORKER_LOGGER, useValue: resources.logger },
        { provide: DataSource, useValue: resources.dataSource },
        ...DATA_SOURCE_REPOSITORIES.map((Repository) => ({
          provide: Repository,
          useFactory: () => new Repository(resources.dataSource),
        })),
        { provide: REDIS_PROBE, useValue: resources.redisProbe },
        { provide: WORKER_METRICS, useValue: resources.metrics },
        { provide: WORKER_OPTIONS, useValue: { service: resources.service, queue: resources.queue } },
        WorkerLifecycle,
      ],
      exports: [AppConfig, WORKER_LOGGER, WORKER_METRICS, DataSource, ...DATA_SOURCE_REPOSITORIES, DomainEventsModule],
    };
  }
}

/** The root of a worker's application context: shared plumbing plus the worker's own module. */
@Module({})
export class WorkerRootModule {
  static forWorker(resources: WorkerResources, workerModule: Type<unknown>): DynamicModule {
    const { config, logger } = resources;
    return {
      module: WorkerRootModule,
      imports: [
        LoggerModule.forRoot({ pinoHttp: { logger } }),
        WorkerCoreModule.forWorker(resources),
        BullModule.forRoot({ connection: bullConnection(config, 'worker'), prefix: bullPrefix(config) }),
        workerModule,
      ],
    };
  }
}
