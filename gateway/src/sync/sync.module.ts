import { Module, type OnModuleInit } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { AuthModule } from '../auth/auth.module';
import { ConnectionEvents } from '../connections/connection-events';
import { ConnectionsModule } from '../connections/connections.module';
import { FiguresSettling } from './figures-settling';
import { SyncMaintenanceService } from './sync-maintenance.service';
import { SyncRunsService } from './sync-runs.service';
import { SyncController } from './sync.controller';

/** /api/sync: start runs (the workers do them), their status, and the scheduled fan-out. */
@Module({
  imports: [AuthModule, ConnectionsModule],
  controllers: [SyncController],
  providers: [SyncRunsService, SyncMaintenanceService, FiguresSettling],
  exports: [SyncRunsService, SyncMaintenanceService],
})
export class SyncModule implements OnModuleInit {
  constructor(
    private readonly events: ConnectionEvents,
    private readonly syncs: SyncRunsService,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext(SyncModule.name);
  }

  /** Once both providers are connected, the first syncs start on their own. */
  onModuleInit(): void {
    this.events.onConnected(async (userId, trigger) => {
      await this.syncs.startFirstSyncs(userId, trigger).catch((error: unknown) => {
        this.logger.warn(
          { event: 'sync.first_syncs_failed', userId, reason: (error as Error)?.name },
          'could not start the first syncs; the schedule will',
        );
      });
    });
  }
}
