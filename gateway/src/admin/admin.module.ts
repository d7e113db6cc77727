import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { AdminQueuesController } from './admin-queues.controller';
import { AdminQueuesService } from './admin-queues.service';
import { OperatorGuard } from './operator.guard';

/** Operator routes under /api/admin. Needs QueuesModule (global) and AppConfig. */
@Module({
  imports: [EventsModule],
  controllers: [AdminQueuesController],
  providers: [AdminQueuesService, OperatorGuard],
})
export class AdminModule {}
