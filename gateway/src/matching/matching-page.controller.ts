import { Controller, Get, Query } from '@nestjs/common';
import type { MatchingPageResponse } from '@pod/contracts';
import { CurrentUser, type SignedInUser } from '../auth/signed-in-user';
import { MatchingQueryDto } from './dto/matching-query.dto';
import { MatchingPageService } from './matching-page.service';

/** The Order Matching page (15 orders a page, one month). */
@Controller('matching')
export class MatchingPageController {
  constructor(private readonly matching: MatchingPageService) {}

  @Get('orders')
  page(@CurrentUser() user: SignedInUser, @Query() query: MatchingQueryDto): Promise<MatchingPageResponse> {
    return this.matching.matchingPage(user.id, query.currency ?? user.currency, query);
  }
}
