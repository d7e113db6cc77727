import { Controller, Get, Param } from '@nestjs/common';
import type { ExchangeRateResponse } from '@pod/contracts';
import { ExchangeRateService } from './exchange-rate.service';

/** `GET /api/exchange-rate/:date/:from/:to` (product spec, part 2 point 9), for signed-in users. */
@Controller('exchange-rate')
export class ExchangeRateController {
  constructor(private readonly exchange: ExchangeRateService) {}

  @Get(':date/:from/:to')
  rate(
    @Param('date') date: string,
    @Param('from') from: string,
    @Param('to') to: string,
  ): Promise<ExchangeRateResponse> {
    return this.exchange.rateFor(date, from, to);
  }
}
