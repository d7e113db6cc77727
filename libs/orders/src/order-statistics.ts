import type { Logger } from 'pino';
import type { OrderTable, TableStatisticsRepository } from '@pod/db';

/**
 * The matcher's planner-statistics backstop (docs/adr/0018-rollups.md): after each match-user
 * and compute-profits job, the order tables it changed in bulk are analyzed when their
 * statistics lag (TableStatisticsRepository.analyzeOrderTables). A failure only logs: the
 * records and figures are written, and the next job or autovacuum makes the statistics good.
 */
export class OrderStatistics {
  constructor(
    private readonly statistics: Pick<TableStatisticsRepository, 'analyzeOrderTables'>,
    private readonly logger: Logger,
  ) {}

  async afterWrite(userId: string, changedNow: Partial<Record<OrderTable, number>>): Promise<void> {
    const started = Date.now();
    try {
      const analyzed = await this.statistics.analyzeOrderTables(changedNow);
      if (analyzed.length > 0)
        this.logger.info(
          { event: 'matcher.analyzed', userId, tables: analyzed, ms: Date.now() - started },
          'refreshed the planner statistics of the order tables',
        );
    } catch (error) {
      this.logger.warn(
        { event: 'matcher.analyze_failed', userId, reason: (error as Error)?.message },
        'could not refresh the order tables’ statistics',
      );
    }
  }
}
