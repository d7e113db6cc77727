import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppConfig } from '@pod/config';
import type { ConnectionsStatus, PrintifyShopView, PrintifyTokenShops } from '@pod/contracts';
import { Public } from '../auth/public.decorator';
import { sessionCookieName } from '../auth/session-cookie';
import { SessionsService } from '../auth/sessions.service';
import { CurrentUser, type SignedInUser } from '../auth/signed-in-user';
import { BODY_LIMITS, BodyLimit } from '../http/body-limits';
import { callbackRejectedPage } from './callback-page';
import { ConnectionsStatusService } from './connections-status.service';
import {
  ConnectPrintifyDto,
  DisconnectableServicePipe,
  PrintifyTokenDto,
  type DisconnectableService,
} from './dto/connections.dto';
import { EtsyConnectService } from './etsy-connect.service';
import { PrintifyConnectService } from './printify-connect.service';

/** A query value we accept: one string of sane length (repeated or nested values are refused). */
function single(value: unknown, max = 2048): string | undefined {
  return typeof value === 'string' && value.length > 0 && value.length <= max ? value : undefined;
}

@Controller('connections')
export class ConnectionsController {
  constructor(
    private readonly statusService: ConnectionsStatusService,
    private readonly etsy: EtsyConnectService,
    private readonly printify: PrintifyConnectService,
    private readonly sessions: SessionsService,
    private readonly config: AppConfig,
  ) {}

  @Get('status')
  status(@CurrentUser() user: SignedInUser): Promise<ConnectionsStatus> {
    return this.statusService.status(user);
  }

  @Post('etsy/oauth')
  @HttpCode(200)
  startEtsy(@CurrentUser() user: SignedInUser) {
    return this.etsy.start(user);
  }

  /**
   * Etsy sends the browser here (a top-level GET, so the SameSite=Lax session cookie comes
   * along). Public so that a failed check answers with a page rather than a JSON 401; the
   * session is read from the cookie here and the state must belong to it. Any returnTo-style
   * parameter is ignored: the destination is always our own /connections.
   */
  @Public()
  @Get('etsy/callback')
  async etsyCallback(@Query() query: Record<string, unknown>, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const jwt = req.cookies?.[sessionCookieName(this.config)];
    const user = jwt ? await this.sessions.resolveJwt(jwt) : null;
    const outcome = await this.etsy.finish(user, {
      state: single(query.state, 512),
      code: single(query.code),
      error: single(query.error, 200),
    });
    void reply.header('Referrer-Policy', 'no-referrer').header('Cache-Control', 'no-store');
    if (outcome.kind === 'redirect') return reply.status(302).header('Location', outcome.location).send();
    return reply.status(400).type('text/html; charset=utf-8').send(callbackRejectedPage(outcome.reason));
  }

  @Post('printify/validate')
  @BodyLimit(BODY_LIMITS.printifyToken)
  @HttpCode(200)
  validatePrintify(@CurrentUser() user: SignedInUser, @Body() dto: PrintifyTokenDto): Promise<PrintifyTokenShops> {
    return this.printify.validate(user, dto.token);
  }

  @Post('printify')
  @BodyLimit(BODY_LIMITS.printifyToken)
  @HttpCode(200)
  connectPrintify(@CurrentUser() user: SignedInUser, @Body() dto: ConnectPrintifyDto) {
    return this.printify.connect(user, dto);
  }

  @Delete('all')
  disconnectAll(@CurrentUser() user: SignedInUser) {
    return this.statusService.disconnectAll(user);
  }

  @Delete(':service')
  disconnect(
    @CurrentUser() user: SignedInUser,
    @Param('service', DisconnectableServicePipe) service: DisconnectableService,
  ) {
    return this.statusService.disconnect(user, service);
  }
}

@Controller('printify')
export class PrintifyShopsController {
  constructor(private readonly printify: PrintifyConnectService) {}

  @Get('shops')
  shops(@CurrentUser() user: SignedInUser): Promise<PrintifyShopView[]> {
    return this.printify.shopsOfConnection(user);
  }
}
