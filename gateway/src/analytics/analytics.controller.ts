import { Controller, Get, Query } from '@nestjs/common';
import type { AnalyticsResponse } from '@pod/contracts';
import { CurrentUser, type SignedInUser } from '../auth/signed-in-user';
import { AnalyticsQueryDto } from './analytics-query.dto';
import { AnalyticsService } from './analytics.service';

/** The Analytics page's figures: the Dashboard's range and currency, its totals and how they are made up. */
@Controller('analytics')
export class AnalyticsController {
  constructor(private readonly analytics: AnalyticsService) {}

  @Get()
  analyticsOf(@CurrentUser() user: SignedInUser, @Query() query: AnalyticsQueryDto): Promise<AnalyticsResponse> {
    return this.analytics.figures(user.id, query.currency ?? user.currency, query);
  }
}
