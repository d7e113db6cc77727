import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { MatchRunsService } from './match-runs.service';
import { MatchRunsController } from './match-runs.controller';
import { OrdersSyncedListener } from './orders-synced.listener';

/** Order matching: POST /api/orders/match, its status, and the automatic run after every sync. */
@Module({
  imports: [AuthModule],
  controllers: [MatchRunsController, OrdersSyncedListener],
  providers: [MatchRunsService],
  exports: [MatchRunsService],
})
export class MatchRunsModule {}
