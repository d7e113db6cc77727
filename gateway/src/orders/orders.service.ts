import { HttpStatus, Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import type {
  MatchCandidatesResponse,
  OrderChangeResponse,
  OrderDetailsResponse,
  OrdersPageResponse,
} from '@pod/contracts';
import { OrderDetailsRepository, OrderEditsService, OrderViewsRepository, type EditOutcome } from '@pod/db';
import {
  DEFAULT_MATCHING_OPTIONS,
  rankManualCandidates,
  type DisplayCurrencyCode,
  type ManualRefusal,
} from '@pod/domain';
import { computeProfitsJobOptions, type ComputeProfitsPayload } from '@pod/queue';
import { ApiException } from '../http/api-exception';
import { QueueProducer } from '../queues/queue-producer';
import type { CandidatesQueryDto, OrdersQueryDto } from './dto/orders-query.dto';
import {
  etsySideView,
  orderListFilter,
  orderRowView,
  printifyOrdersView,
  printifySideView,
  profitView,
} from './order-view-mapping';

const CANDIDATE_PAGE_SIZE = 20;
const NOT_FOUND_MESSAGE = 'Order not found.';
const BUSY_MESSAGE = 'Matching is running for your orders; try again in a moment.';

/** What the seller reads when the manual-match rule refuses a change (manual-match.ts). */
const REFUSAL_MESSAGES: Record<ManualRefusal, string> = {
  same_record: 'These orders cannot be matched: pick two different orders.',
  archived: 'Archived orders cannot be changed: restore the order first.',
  no_printify_side: 'These orders cannot be matched: pick a Printify order for this Etsy order.',
  no_etsy_side: 'These orders cannot be matched: a Printify order is matched to an Etsy order.',
  already_matched: 'That Printify order is already on another Etsy order: remove it there first.',
  two_receipts: 'These orders cannot be matched: both are Etsy orders; pick an Etsy order and a Printify order.',
  not_on_record: 'That Printify order is not on this Etsy order.',
};

const notFound = () => new ApiException(HttpStatus.NOT_FOUND, 'not_found', NOT_FOUND_MESSAGE);

/**
 * The Orders page, one order's details and candidates, and the user's changes to one order. Every
 * figure is read as stored (order_profit); every count, sum and page comes from SQL. An id that
 * is not the user's answers exactly like one that does not exist.
 */
@Injectable()
export class OrdersService {
  constructor(
    private readonly views: OrderViewsRepository,
    private readonly details: OrderDetailsRepository,
    private readonly edits: OrderEditsService,
    private readonly producer: QueueProducer,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext(OrdersService.name);
  }

  async list(
    userId: string,
    currency: DisplayCurrencyCode,
    query: OrdersQueryDto,
    now = new Date(),
  ): Promise<OrdersPageResponse> {
    const page = Number(query.page ?? 1);
    const pageSize = Number(query.pageSize ?? 50);
    const filter = orderListFilter(query, now);
    const { sort } = filter;
    const { counts, rows } = await this.views.list(userId, currency, filter, pageSize, (page - 1) * pageSize);
    return {
      orders: rows.map((row) => orderRowView(row, currency)),
      filteredTotal: counts.filteredTotal,
      total: counts.total,
      tabCounts: counts.tabCounts,
      page,
      pageSize,
      currency,
      sort: sort.key,
      dir: sort.direction,
    };
  }

  async orderDetails(userId: string, id: string, currency: DisplayCurrencyCode): Promise<OrderDetailsResponse> {
    const { row, breakdown } = await this.rowWithItsBreakdown(userId, id, currency);
    const order = orderRowView(row, currency);
    const sides = await this.views.sidesOf(userId, id);
    const receipt = sides?.receipt ? await this.details.receipt(userId, sides.receipt.shopId, sides.receipt.id) : null;
    const printify = sides?.order ? await this.details.printifyOrder(userId, sides.order.shopId, sides.order.id) : null;
    const { orders: printifyOrders, costReading } = await this.details.printifyOrdersOf(userId, id);
    return {
      order,
      etsy: receipt ? etsySideView(receipt, order) : null,
      printify: printify ? printifySideView(printify, breakdown, order) : null,
      printifyOrders: printifyOrdersView(printifyOrders, costReading),
      profit: profitView(order, breakdown, currency),
    };
  }

  /**
   * The order's row and its stored breakdown from one computation: the matcher may store new
   * figures between the two reads (the ledger arriving after the first figures), and a summary
   * whose lines are of one computation and totals of another does not add up. Read again
   * (at most twice) until the breakdown's row carries the row's sums.
   */
  private async rowWithItsBreakdown(userId: string, id: string, currency: DisplayCurrencyCode) {
    for (let attempt = 1; ; attempt += 1) {
      const [row] = await this.views.rowsByIds(userId, currency, [id]);
      if (!row) throw notFound();
      const stored = await this.details.breakdown(userId, id, currency);
      const same =
        !stored ||
        row.figures === null ||
        (stored.revenueMinor === row.revenueMinor &&
          stored.costsMinor === row.costsMinor &&
          stored.netProfitMinor === row.netProfitMinor);
      if (same || attempt === 3) return { row, breakdown: stored?.breakdown ?? null };
    }
  }

  async candidates(
    userId: string,
    id: string,
    currency: DisplayCurrencyCode,
    query: CandidatesQueryDto,
  ): Promise<MatchCandidatesResponse> {
    const search = query.search?.trim() || null;
    const page = Number(query.page ?? 1);
    const pool = await this.details.candidatePool(userId, id, search);
    if (!pool) throw notFound();
    const ranked = rankManualCandidates(pool.selected, pool.others, { keepNoFit: search !== null });
    const onPage = ranked.slice((page - 1) * CANDIDATE_PAGE_SIZE, page * CANDIDATE_PAGE_SIZE);
    const rows = await this.views.rowsByIds(userId, currency, [id, ...onPage.map((candidate) => candidate.id)]);
    const byId = new Map(rows.map((row) => [row.id, orderRowView(row, currency)]));
    const order = byId.get(id);
    if (!order) throw notFound();
    return {
      order,
      candidates: onPage.flatMap(({ id: candidateId, fit }) => {
        const view = byId.get(candidateId);
        return view ? [{ order: view, score: fit.score, fit }] : [];
      }),
      total: ranked.length,
      page,
      pageSize: CANDIDATE_PAGE_SIZE,
      lowFitBelow: DEFAULT_MATCHING_OPTIONS.reviewThreshold,
    };
  }

  async matchByHand(
    userId: string,
    id: string,
    withId: string,
    currency: DisplayCurrencyCode,
  ): Promise<OrderChangeResponse> {
    return this.afterEdit(
      userId,
      currency,
      await this.edits.matchByHand(userId, id, withId),
      'These two orders cannot be matched: pick an Etsy order and a Printify order not already on another Etsy order, neither archived.',
    );
  }

  async removePrintifyOrder(
    userId: string,
    id: string,
    printifyOrderId: string,
    currency: DisplayCurrencyCode,
  ): Promise<OrderChangeResponse> {
    return this.afterEdit(
      userId,
      currency,
      await this.edits.removePrintifyOrder(userId, id, printifyOrderId),
      'Only a Printify order on this Etsy order (not archived) can be removed from it.',
    );
  }

  async unmatch(userId: string, id: string, currency: DisplayCurrencyCode): Promise<OrderChangeResponse> {
    return this.afterEdit(
      userId,
      currency,
      await this.edits.unmatch(userId, id),
      'Only an Etsy order paired with a Printify order (and not archived) can be unmatched.',
    );
  }

  async setArchived(
    userId: string,
    id: string,
    archived: boolean,
    currency: DisplayCurrencyCode,
  ): Promise<OrderChangeResponse> {
    return this.afterEdit(userId, currency, await this.edits.setArchived(userId, id, archived), '');
  }

  private async afterEdit(
    userId: string,
    currency: DisplayCurrencyCode,
    outcome: EditOutcome,
    conflictMessage: string,
  ): Promise<OrderChangeResponse> {
    if (outcome === 'not_found') throw notFound();
    if (outcome === 'conflict') throw new ApiException(HttpStatus.CONFLICT, 'conflict', conflictMessage);
    // The change was not made: the user's lock stayed taken past the edit's short wait (EDIT_LOCK_WAIT_MS).
    if (outcome === 'busy') throw new ApiException(HttpStatus.CONFLICT, 'matching_in_progress', BUSY_MESSAGE);
    if ('refused' in outcome)
      throw new ApiException(HttpStatus.CONFLICT, 'conflict', REFUSAL_MESSAGES[outcome.refused]);
    await this.queueProfits(userId, 'record_changed');
    const rows = await this.views.rowsByIds(userId, currency, outcome.ids);
    return { orders: rows.map((row) => orderRowView(row, currency)) };
  }

  /** The change is committed: a profit trigger Redis does not take is logged, and the next match run recomputes. */
  private async queueProfits(userId: string, reason: ComputeProfitsPayload['reason']): Promise<void> {
    try {
      await this.producer.enqueue('matcher', 'compute-profits', { userId, reason }, computeProfitsJobOptions(userId));
    } catch {
      this.logger.warn(
        { event: 'profits.queue_failed', userId },
        'could not queue profit computation after an order change',
      );
    }
  }
}
