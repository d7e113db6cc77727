import { Module } from '@nestjs/common';
import { DemoModule } from '../demo/demo.module';
import { MaintenanceWorkerService } from './maintenance-worker.service';

/** Job schedulers' registration and the `maintenance` queue's consumer (see MaintenanceWorkerService). */
@Module({
  imports: [DemoModule],
  providers: [MaintenanceWorkerService],
})
export class MaintenanceModule {}
