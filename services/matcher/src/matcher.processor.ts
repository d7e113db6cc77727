import { Processor } from '@nestjs/bullmq';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { AppConfig } from '@pod/config';
import { MatchRunsRepository, OrderProfitsRepository, TableStatisticsRepository } from '@pod/db';
import { DEFAULT_MATCHING_OPTIONS } from '@pod/domain';
import { DomainEventPublisher, markProfitsFinished, workerOptionsFor, type JobHandlers } from '@pod/queue';
import { ContractProcessor, pingHandler, WORKER_LOGGER } from '@pod/worker-runtime';
import { Inject } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { MatchRunsHandler } from './match-runs.handler';
import { OrderStatistics, UserProfits, UserMatcher } from '@pod/orders';
import { ProfitJobs } from './profits/profit-jobs';

const QUEUE = 'matcher';

/** Matches Etsy receipts to Printify orders, one user per `match-user` job, and keeps their stored profits current (compute-profits, refigure-profits). */
@Processor(QUEUE, workerOptionsFor(QUEUE))
export class MatcherProcessor extends ContractProcessor<typeof QUEUE> {
  readonly queue = QUEUE;
  readonly handlers: JobHandlers<typeof QUEUE>;

  constructor(
    dataSource: DataSource,
    config: AppConfig,
    runs: MatchRunsRepository,
    events: DomainEventPublisher,
    @Inject(WORKER_LOGGER) logger: Logger,
    @InjectQueue(QUEUE) queue: Queue,
  ) {
    super();
    const matcher = new UserMatcher(dataSource, {
      ...DEFAULT_MATCHING_OPTIONS,
      pendingReceiptDays: config.MATCH_PENDING_DAYS,
    });
    const statistics = new OrderStatistics(new TableStatisticsRepository(dataSource), logger);
    const profits = new ProfitJobs(
      queue,
      new UserProfits(dataSource, undefined, undefined, (ledgerTypes) =>
        logger.warn(
          { event: 'ledger.unclassified_types', ledgerTypes },
          'ledger types not classified yet: shown as Unclassified shop costs',
        ),
      ),
      new OrderProfitsRepository(dataSource),
      logger,
      statistics,
      (userId) => markProfitsFinished(queue, userId),
    );
    const matchRuns = new MatchRunsHandler(
      runs,
      matcher,
      events,
      logger,
      undefined,
      (userId) => profits.queueFor(userId, 'matched'),
      statistics,
    );
    this.handlers = {
      ping: pingHandler(QUEUE),
      'match-user': (job) => matchRuns.handle(job),
      'compute-profits': (job) => profits.compute(job),
      'refigure-profits': (job) => profits.refigure(job),
    };
  }
}
