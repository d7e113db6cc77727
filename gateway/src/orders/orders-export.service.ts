import { pipeline, Transform, type Readable } from 'node:stream';
import { HttpStatus, Injectable } from '@nestjs/common';
import { stringify } from 'csv-stringify';
import { PinoLogger } from 'nestjs-pino';
import { OrderExportRepository, type OrderExportRow } from '@pod/db';
import type { DisplayCurrencyCode } from '@pod/domain';
import { ApiException } from '../http/api-exception';
import type { OrderFiltersQueryDto } from './dto/orders-query.dto';
import { orderListFilter } from './order-view-mapping';
import { castBigint, castNumber, ORDER_CSV_HEADERS, orderCsvRecord } from './orders-csv';

export const EXPORT_RUNNING_MESSAGE = 'An export is already running for your account; try again when it has finished.';
/** A second export while one runs is a rate limit (security plan item 35: 429 for extras); a few seconds on, ask again. */
const EXPORT_RETRY_AFTER_SECONDS = 5;

/**
 * GET /api/orders/export: the Orders list's records for the same filters, sort and display
 * currency, as CSV, streamed from the database's cursor through csv-stringify to the client
 * with backpressure all the way (docs/adr/0039-csv-export.md). One export per user at a time.
 */
@Injectable()
export class OrdersExportService {
  constructor(
    private readonly exports: OrderExportRepository,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext(OrdersExportService.name);
  }

  /** The CSV as a byte stream; destroying it (the client left) closes the cursor and frees the connection. */
  async open(
    userId: string,
    currency: DisplayCurrencyCode,
    query: OrderFiltersQueryDto,
    now = new Date(),
  ): Promise<Readable> {
    const cursor = await this.exports.open(userId, currency, orderListFilter(query, now));
    if (cursor === 'busy')
      throw new ApiException(HttpStatus.TOO_MANY_REQUESTS, 'export_in_progress', EXPORT_RUNNING_MESSAGE, {
        retryAfterSeconds: EXPORT_RETRY_AFTER_SECONDS,
      });
    const records = new Transform({
      objectMode: true,
      transform(row: OrderExportRow, _encoding, done) {
        try {
          done(null, orderCsvRecord(row, currency));
        } catch (error) {
          done(error as Error);
        }
      },
    });
    const csv = stringify({
      header: true,
      columns: ORDER_CSV_HEADERS,
      bom: true,
      escape_formulas: true,
      cast: { number: castNumber, bigint: castBigint },
    });
    pipeline(cursor.rows, records, csv, (error) => {
      // A client that leaves mid-file ends the pipeline early: that is not the export failing.
      if (error && (error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE')
        this.logger.error({ event: 'orders.export_failed', userId, err: error }, 'the CSV export stopped');
    });
    return csv;
  }
}
