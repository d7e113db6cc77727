import { Module } from '@nestjs/common';
import { EventsModule } from '../events/events.module';
import { AdminMetricsController } from './admin-metrics.controller';
import { AdminQueuesController } from './admin-queues.controller';
import { AdminQueuesService } from './admin-queues.service';
import { AdminWorkersController } from './admin-workers.controller';
import { AdminWorkersService } from './admin-workers.service';
import { OperatorGuard } from './operator.guard';
import { OperatorThrottle } from './operator-throttle';

/**
 * Operator routes under /api/admin (queues, workers, metrics). Needs QueuesModule and
 * MetricsModule (global) and AppConfig. Bull Board is mounted beside them by createGateway (bull-board.ts).
 */
@Module({
  imports: [EventsModule],
  controllers: [AdminQueuesController, AdminMetricsController, AdminWorkersController],
  providers: [AdminQueuesService, AdminWorkersService, OperatorGuard, OperatorThrottle],
  exports: [OperatorThrottle],
})
export class AdminModule {}
