import { Module, type DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { Logger } from 'pino';
import { AppConfig } from '@pod/config';
import { errorForLog, pathWithoutQuery } from '@pod/observability';
import { AdminModule } from './admin/admin.module';
import { AuthModule } from './auth/auth.module';
import { ConnectionsModule } from './connections/connections.module';
import { CoreModule } from './core/core.module';
import { AnalyticsModule } from './analytics/analytics.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { DataManagementModule } from './data-management/data-management.module';
import { DemoModule } from './demo/demo.module';
import { EventsModule } from './events/events.module';
import { ExchangeRateModule } from './exchange-rate/exchange-rate.module';
import { HealthModule } from './health/health.module';
import { pathForLog } from './http/provider-webhook-route';
import { MaintenanceModule } from './maintenance/maintenance.module';
import { MatchingPageModule } from './matching/matching-page.module';
import { MetricsModule } from './metrics/metrics.module';
import { MatchRunsModule } from './orders/match-runs.module';
import { OrdersModule } from './orders/orders.module';
import { PayoutsModule } from './payouts/payouts.module';
import { ProfitSettingsModule } from './profit-settings/profit-settings.module';
import { PublicConfigModule } from './public-config/public-config.module';
import { QueuesModule } from './queues/queues.module';
import { SyncModule } from './sync/sync.module';
import { UsersModule } from './users/users.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: AppModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: {
            logger,
            genReqId: (req) => (req as { id?: string }).id ?? 'unknown',
            customProps: (req) => {
              const user = (req as { user?: { id: string } }).user;
              return user ? { userId: user.id } : {};
            },
            customSuccessObject: (_req, _res, value: object) => ({ ...value, event: 'http.request' }),
            customErrorObject: (_req, _res, _error, value: object) => ({ ...value, event: 'http.request' }),
            serializers: {
              req: (req: { id?: string; method?: string; url?: string }) => ({
                id: req.id,
                method: req.method,
                // A Printify webhook path carries its connection's key: not for the logs.
                url: pathForLog(pathWithoutQuery(req.url)),
              }),
              res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
              err: errorForLog,
            },
          },
        }),
        CoreModule.forRoot(config),
        AuthModule,
        UsersModule,
        DataManagementModule,
        ConnectionsModule,
        DemoModule,
        HealthModule,
        PublicConfigModule,
        QueuesModule,
        MetricsModule,
        EventsModule,
        AdminModule,
        MaintenanceModule,
        SyncModule,
        MatchRunsModule,
        OrdersModule,
        PayoutsModule,
        MatchingPageModule,
        DashboardModule,
        AnalyticsModule,
        ProfitSettingsModule,
        WebhooksModule,
        ExchangeRateModule,
      ],
    };
  }
}
