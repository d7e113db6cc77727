import { HttpStatus, Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import type { ProfitSettingsResponse, UpdateProfitSettingsRequest } from '@pod/contracts';
import { ProfitSettingsRepository } from '@pod/db';
import { computeProfitsJobOptions } from '@pod/queue';
import { ApiException } from '../http/api-exception';
import { QueueProducer } from '../queues/queue-producer';

const NOT_CONNECTED = {
  etsy: 'Connect your Etsy shop before setting its VAT registration.',
  printify: 'Connect your Printify account before setting how its costs are read.',
} as const;

/**
 * Reads and changes the seller's profit settings. A change re-figures every order of the seller:
 * compute-profits is queued with `force` (the settings are also in each record's inputs hash, so
 * even a run queued before this one, which the deduplication keeps instead, figures them again).
 */
@Injectable()
export class ProfitSettingsService {
  constructor(
    private readonly settings: ProfitSettingsRepository,
    private readonly producer: QueueProducer,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext(ProfitSettingsService.name);
  }

  read(userId: string): Promise<ProfitSettingsResponse> {
    return this.settings.read(userId);
  }

  async update(userId: string, change: UpdateProfitSettingsRequest): Promise<ProfitSettingsResponse> {
    if (change.vatRegistered === undefined && change.printifyCostReading === undefined)
      throw new ApiException(HttpStatus.BAD_REQUEST, 'validation_failed', 'Send vatRegistered or printifyCostReading.');
    const result = await this.settings.update(userId, change);
    if (result.outcome === 'not_connected')
      throw new ApiException(HttpStatus.CONFLICT, 'not_connected', NOT_CONNECTED[result.provider]);
    let recalculating = false;
    if (result.changed) {
      this.logger.info({ event: 'profit_settings.changed', userId }, 'profit settings changed');
      recalculating = await this.queueRefigure(userId);
    }
    return { ...(await this.settings.read(userId)), recalculating };
  }

  /** The change is committed: a trigger Redis does not take is logged, and the next match run figures the orders again. */
  private async queueRefigure(userId: string): Promise<boolean> {
    try {
      await this.producer.enqueue(
        'matcher',
        'compute-profits',
        { userId, reason: 'settings', force: true },
        computeProfitsJobOptions(userId),
      );
      return true;
    } catch {
      this.logger.warn(
        { event: 'profits.queue_failed', userId },
        'could not queue profit computation after a settings change',
      );
      return false;
    }
  }
}
