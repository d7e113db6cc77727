import { Controller, Get, HttpCode, HttpStatus, Post } from '@nestjs/common';
import type { MatchStartResponse, MatchStatusResponse } from '@pod/contracts';
import { AbuseThrottleService } from '../auth/throttles/abuse-throttle.service';
import { CurrentUser, type SignedInUser } from '../auth/signed-in-user';
import { MatchRunsService } from './match-runs.service';

/** "Match Orders": queue a run for the signed-in user (202: the matcher does it) and the status the web app polls. */
@Controller('orders/match')
export class MatchRunsController {
  constructor(
    private readonly runs: MatchRunsService,
    private readonly throttle: AbuseThrottleService,
  ) {}

  @Post()
  @HttpCode(HttpStatus.ACCEPTED)
  async match(@CurrentUser() user: SignedInUser): Promise<MatchStartResponse> {
    await this.throttle.assertMatchAllowed(user.id);
    return this.runs.queue(user.id, 'user');
  }

  @Get('status')
  status(@CurrentUser() user: SignedInUser): Promise<MatchStatusResponse> {
    return this.runs.status(user.id);
  }
}
