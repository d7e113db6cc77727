import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Query } from '@nestjs/common';
import type {
  MatchCandidatesResponse,
  OrderChangeResponse,
  OrderDetailsResponse,
  OrdersPageResponse,
} from '@pod/contracts';
import { CurrentUser, type SignedInUser } from '../auth/signed-in-user';
import { CurrencyQueryDto } from '../http/shared-query.dto';
import {
  CandidatesQueryDto,
  ManualMatchDto,
  OrderIdParams,
  OrdersQueryDto,
  RemovePrintifyOrderDto,
} from './dto/orders-query.dto';
import { OrdersService } from './orders.service';

/**
 * The Orders page and one order: list, details, manual-match candidates, and the user's changes
 * (match, remove a Printify order, unmatch, archive, restore). `:id` must be a UUID, so `/api/orders/match` (the match
 * run routes, a static segment) is never taken for an id.
 */
@Controller('orders')
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Get()
  list(@CurrentUser() user: SignedInUser, @Query() query: OrdersQueryDto): Promise<OrdersPageResponse> {
    return this.orders.list(user.id, query.currency ?? user.currency, query);
  }

  @Get(':id')
  details(
    @CurrentUser() user: SignedInUser,
    @Param() params: OrderIdParams,
    @Query() query: CurrencyQueryDto,
  ): Promise<OrderDetailsResponse> {
    return this.orders.orderDetails(user.id, params.id, query.currency ?? user.currency);
  }

  @Get(':id/candidates')
  candidates(
    @CurrentUser() user: SignedInUser,
    @Param() params: OrderIdParams,
    @Query() query: CandidatesQueryDto,
  ): Promise<MatchCandidatesResponse> {
    return this.orders.candidates(user.id, params.id, query.currency ?? user.currency, query);
  }

  @Post(':id/match')
  @HttpCode(HttpStatus.OK)
  match(
    @CurrentUser() user: SignedInUser,
    @Param() params: OrderIdParams,
    @Body() body: ManualMatchDto,
  ): Promise<OrderChangeResponse> {
    return this.orders.matchByHand(user.id, params.id, body.withOrderId, user.currency);
  }

  /** Takes one Printify order off the receipt (issue 17); its only one: the plain unmatch. */
  @Post(':id/remove-printify-order')
  @HttpCode(HttpStatus.OK)
  removePrintifyOrder(
    @CurrentUser() user: SignedInUser,
    @Param() params: OrderIdParams,
    @Body() body: RemovePrintifyOrderDto,
  ): Promise<OrderChangeResponse> {
    return this.orders.removePrintifyOrder(user.id, params.id, body.printifyOrderId, user.currency);
  }

  @Post(':id/unmatch')
  @HttpCode(HttpStatus.OK)
  unmatch(@CurrentUser() user: SignedInUser, @Param() params: OrderIdParams): Promise<OrderChangeResponse> {
    return this.orders.unmatch(user.id, params.id, user.currency);
  }

  @Post(':id/archive')
  @HttpCode(HttpStatus.OK)
  archive(@CurrentUser() user: SignedInUser, @Param() params: OrderIdParams): Promise<OrderChangeResponse> {
    return this.orders.setArchived(user.id, params.id, true, user.currency);
  }

  @Post(':id/restore')
  @HttpCode(HttpStatus.OK)
  restore(@CurrentUser() user: SignedInUser, @Param() params: OrderIdParams): Promise<OrderChangeResponse> {
    return this.orders.setArchived(user.id, params.id, false, user.currency);
  }
}
