import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { FxRatesRepository } from '@pod/db';
import { ECB_FILES, toFxRateRows, type EcbClient } from '@pod/integrations';
import type { FxRefreshPayload, FxRefreshResult } from '@pod/queue';
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
  ) {}

  async refresh(payload: FxRefreshPayload, signal?: AbortSignal, now: Date = new Date()): Promise<FxRefreshResult> {
    const file = planRefresh(await this.rates.latestDate(), now.toISOString().slice(0, 10));
    const days = await this.ecb.fetchRates(file, signal);
    const source = ECB_FILES[file].path.slice(1);
    // No transaction: each chunk is an idempotent upsert, and a crash halfway is finished by the next run.
    const counts = await this.rates.upsertRates(toFxRateRows(days), source, now);
    const latestDate = await this.rates.latestDate();
    this.logger.info({ event: 'fx.refreshed', reason: payload.reason, file: source, days: days.length, ...counts, latestDate }, 'ECB rates refreshed');
    return { file, days: days.length, ...counts, latestDate };
  }
}
