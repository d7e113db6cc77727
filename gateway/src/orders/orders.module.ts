import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { DashboardController, MatchingPageController, OrdersController } from './orders.controller';
import { OrdersService } from './orders.service';

/** The order pages' read API and the user's changes to one order (GET /api/orders, /api/orders/:id…, /api/matching/orders, /api/dashboard/metrics). */
@Module({
  imports: [AuthModule],
  controllers: [OrdersController, MatchingPageController, DashboardController],
  providers: [OrdersService],
})
export class OrdersModule {}
