import { Controller, Get, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { isoDateOf } from '@pod/domain';
import { CurrentUser, type SignedInUser } from '../auth/signed-in-user';
import { OrderFiltersQueryDto } from './dto/orders-query.dto';
import { OrdersExportService } from './orders-export.service';

/**
 * GET /api/orders/export: the Orders page's orders as a CSV file, for the list's filters (all
 * orders without them). A static segment, so never taken for `/api/orders/:id`.
 */
@Controller('orders')
export class OrdersExportController {
  constructor(private readonly exports: OrdersExportService) {}

  @Get('export')
  async export(
    @CurrentUser() user: SignedInUser,
    @Query() query: OrderFiltersQueryDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const csv = await this.exports.open(user.id, query.currency ?? user.currency, query);
    await reply
      .header('Content-Type', 'text/csv; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="podprofit-orders-${isoDateOf(new Date())}.csv"`)
      .header('Cache-Control', 'no-store')
      .send(csv);
  }
}
