import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ConnectionsModule } from '../connections/connections.module';
import { DataDeletionService } from './data-deletion.service';
import { DeleteAccountController, DeleteAllDataController } from './data-management.controller';
import { UserJobsCanceller } from './user-jobs.canceller';

/** Settings → Data Management's deletions (issue 19, docs/adr/0036-data-deletion-cancellation.md). */
@Module({
  imports: [AuthModule, ConnectionsModule],
  controllers: [DeleteAllDataController, DeleteAccountController],
  providers: [DataDeletionService, UserJobsCanceller],
})
export class DataManagementModule {}
