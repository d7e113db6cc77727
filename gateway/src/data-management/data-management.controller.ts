import { Body, Controller, Delete, HttpCode, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AppConfig } from '@pod/config';
import { sessionCookieName, sessionCookieOptions } from '../auth/session-cookie';
import { CurrentUser, type SignedInUser } from '../auth/signed-in-user';
import { BODY_LIMITS, BodyLimit } from '../http/body-limits';
import { DataDeletionService } from './data-deletion.service';
import { DeleteAccountDto } from './dto/delete-account.dto';

/** `DELETE /api/orders/delete-all` (spec §7): every order, match and figure of the user; account and connections stay. */
@Controller('orders')
export class DeleteAllDataController {
  constructor(private readonly deletion: DataDeletionService) {}

  @Delete('delete-all')
  deleteAll(@CurrentUser() user: SignedInUser): Promise<{ ok: true }> {
    return this.deletion.deleteAllData(user);
  }
}

/**
 * `POST /api/user/delete` with `{ password }` (issue 19): a POST rather than `DELETE /api/user`
 * because it carries the re-entered password in a body, which DELETE bodies are not reliably
 * given by clients and proxies. Signs the caller out (the cookie cleared) on success.
 */
@Controller('user')
export class DeleteAccountController {
  constructor(
    private readonly deletion: DataDeletionService,
    private readonly config: AppConfig,
  ) {}

  @Post('delete')
  @BodyLimit(BODY_LIMITS.signUp)
  @HttpCode(200)
  async deleteAccount(
    @CurrentUser() user: SignedInUser,
    @Body() dto: DeleteAccountDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ ok: true }> {
    const result = await this.deletion.deleteAccount(user, dto.password);
    const name = sessionCookieName(this.config);
    void reply.clearCookie(name, { ...sessionCookieOptions(this.config, 0), maxAge: undefined });
    return result;
  }
}
