import { Global, Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import Redis from 'ioredis';
import { AppConfig } from '@pod/config';
import type { DataSource } from 'typeorm';
import { assertRuntimeRole, createDataSource, DATA_SOURCE_REPOSITORIES } from '@pod/db';

export const REDIS = Symbol('REDIS');

/**
 * Config, the database with its repositories (the only way the gateway reaches PostgreSQL, see
 * docs/adr/0003-data-access.md) and a Redis client for the gateway's own keys (throttles, event records).
 */
const repositoryProviders = DATA_SOURCE_REPOSITORIES.map((Repository) => ({
  provide: Repository,
  inject: [getDataSourceToken()],
  useFactory: (dataSource: DataSource) => new Repository(dataSource),
}));

@Global()
@Module({})
export class CoreModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CoreModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({}),
          dataSourceFactory: async () => {
            const dataSource = await createDataSource(config, 'podprofit-gateway').initialize();
            // Refuses to start when queries would skip row-level security (ADR 0015).
            await assertRuntimeRole(dataSource).catch(async (error: unknown) => {
              await dataSource.destroy();
              throw error;
            });
            return dataSource;
          },
        }),
      ],
      providers: [
        { provide: AppConfig, useValue: config },
        ...repositoryProviders,
        {
          provide: REDIS,
          useFactory: () =>
            new Redis(config.REDIS_URL, {
              keyPrefix: `${config.REDIS_PREFIX}:`,
              // Requests must fail fast (503) rather than queue up while Redis is away.
              maxRetriesPerRequest: 1,
              enableOfflineQueue: false,
              connectTimeout: 2_000,
              lazyConnect: false,
            }),
        },
      ],
      exports: [AppConfig, REDIS, ...DATA_SOURCE_REPOSITORIES],
    };
  }
}
