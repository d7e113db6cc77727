import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { OrdersExportController } from './orders-export.controller';
import { OrdersExportService } from './orders-export.service';
import { OrdersController } from './orders.controller';
import { OrdersService } from './orders.service';

/** The Orders page's read API and the user's changes to one order (GET /api/orders, /api/orders/:id…) and its CSV export (GET /api/orders/export). */
@Module({
  imports: [AuthModule],
  controllers: [OrdersExportController, OrdersController],
  providers: [OrdersService, OrdersExportService],
})
export class OrdersModule {}
