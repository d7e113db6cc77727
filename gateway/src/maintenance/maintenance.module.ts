import { Module } from '@nestjs/common';
import { DemoModule } from '../demo/demo.module';
import { SyncModule } from '../sync/sync.module';
import { MaintenanceWorkerService } from './maintenance-worker.service';

/** Job schedulers' registration and the `maintenance` queue's consumer (see MaintenanceWorkerService). */
@Module({
  imports: [DemoModule, SyncModule],
  providers: [MaintenanceWorkerService],
})
export class MaintenanceModule {}
