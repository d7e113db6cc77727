import { Controller, Get, Query } from '@nestjs/common';
import type { PayoutsPageResponse } from '@pod/contracts';
import type { DisplayCurrencyCode } from '@pod/domain';
import { CurrentUser, type SignedInUser } from '../auth/signed-in-user';
import { PayoutsQueryDto } from './dto/payouts-query.dto';
import { PayoutsService } from './payouts.service';

/** The Payouts page: the signed-in user's Etsy deposits, each reconciled to the cent (ADR 0027). */
@Controller('payouts')
export class PayoutsController {
  constructor(private readonly payouts: PayoutsService) {}

  @Get()
  page(@CurrentUser() user: SignedInUser, @Query() query: PayoutsQueryDto): Promise<PayoutsPageResponse> {
    return this.payouts.page(
      user.id,
      Number(query.page ?? 1),
      Number(query.pageSize ?? 10),
      (query.currency as DisplayCurrencyCode | undefined) ?? null,
    );
  }
}
