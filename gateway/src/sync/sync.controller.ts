import { Body, Controller, Get, HttpCode, HttpStatus, Post } from '@nestjs/common';
import type { SyncStartResponse, SyncStatusResponse } from '@pod/contracts';
import { CurrentUser, type SignedInUser } from '../auth/signed-in-user';
import { SyncPrintifyDto } from './dto/sync-printify.dto';
import { SyncRunsService } from './sync-runs.service';
import { AbuseThrottleService } from '../auth/throttles/abuse-throttle.service';

/** Starting syncs (202: the workers do them) and the status the web app polls while one runs. */
@Controller('sync')
export class SyncController {
  constructor(
    private readonly syncs: SyncRunsService,
    private readonly throttle: AbuseThrottleService,
  ) {}

  @Post('etsy')
  @HttpCode(HttpStatus.ACCEPTED)
  async etsy(@CurrentUser() user: SignedInUser): Promise<SyncStartResponse> {
    await this.throttle.assertSyncAllowed(user.id);
    return this.syncs.startForUser(user.id, 'etsy');
  }

  @Post('printify')
  @HttpCode(HttpStatus.ACCEPTED)
  async printify(@CurrentUser() user: SignedInUser, @Body() body: SyncPrintifyDto): Promise<SyncStartResponse> {
    await this.throttle.assertSyncAllowed(user.id);
    return this.syncs.startPrintifyForUser(user, body.shopId);
  }

  @Get('status')
  status(@CurrentUser() user: SignedInUser): Promise<SyncStatusResponse> {
    return this.syncs.status(user.id);
  }
}
