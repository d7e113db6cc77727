import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { FxRatesRepository } from '@pod/db';
import { ECB_FILES, toFxRateRows, type EcbClient } from '@pod/integrations';
import { jobOptionsFor, type FxRefreshPayload, type FxRefreshResult, type RefigureProfitsPayload } from '@pod/queue';
import { WORKER_LOGGER } from '@pod/worker-runtime';
import { planRefresh } from './refresh-plan';

export const ECB_CLIENT = Symbol('ECB_CLIENT');

/** Brings fx_rate up to date from the ECB (see planRefresh); safe to run any number of times, anywhere. */
@Injectable()
export class FxRatesService {
  constructor(
    @Inject(ECB_CLIENT) private readonly ecb: EcbClient,
    private readonly rates: FxRatesRepository,
    @Inject(WORKER_LOGGER) private readonly logger: Logger,
    @InjectQueue('matcher') private readonly matcher: Pick<Queue, 'add'>,
  ) {}

  async refresh(payload: FxRefreshPayload, signal?: AbortSignal, now: Date = new Date()): Promise<FxRefreshResult> {
    const previousLatestRateDate = await this.rates.latestDate();
    const file = planRefresh(previousLatestRateDate, now.toISOString().slice(0, 10));
    const days = await this.ecb.fetchRates(file, signal);
    const source = ECB_FILES[file].path.slice(1);
    // No transaction: each chunk is an idempotent upsert, and a crash halfway is finished by the next run.
    const counts = await this.rates.upsertRates(toFxRateRows(days), source, now);
    const latestDate = await this.rates.latestDate();
    // New or corrected rates can turn "rate unavailable" orders (and orders dated after the
    // previous latest day) into figures: the matcher re-figures the users who have such orders.
    if (counts.inserted + counts.changed > 0) await this.queueRefigure({ previousLatestRateDate });
    this.logger.info(
      { event: 'fx.refreshed', reason: payload.reason, file: source, days: days.length, ...counts, latestDate },
      'ECB rates refreshed',
    );
    return { file, days: days.length, ...counts, latestDate };
  }

  private async queueRefigure(payload: RefigureProfitsPayload): Promise<void> {
    await this.matcher.add('refigure-profits', payload, jobOptionsFor('matcher', 'refigure-profits'));
  }
}
