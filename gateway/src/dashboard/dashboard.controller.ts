import { Controller, Get, Query } from '@nestjs/common';
import type { DashboardMetricsResponse } from '@pod/contracts';
import { CurrentUser, type SignedInUser } from '../auth/signed-in-user';
import { DashboardQueryDto } from './dto/dashboard-query.dto';
import { DashboardService } from './dashboard.service';

/** The Dashboard's totals (archived orders' figures included, counts of active ones; orders without a rate counted, not summed). */
@Controller('dashboard')
export class DashboardController {
  constructor(private readonly dashboard: DashboardService) {}

  @Get('metrics')
  metrics(@CurrentUser() user: SignedInUser, @Query() query: DashboardQueryDto): Promise<DashboardMetricsResponse> {
    return this.dashboard.dashboard(user.id, query.currency ?? user.currency, query);
  }
}
