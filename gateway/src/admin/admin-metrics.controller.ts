import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { METRICS_CONTENT_TYPE, ProcessMetrics } from '@pod/observability';
import { Public } from '../auth/public.decorator';
import { OperatorGuard } from './operator.guard';

/**
 * The gateway's Prometheus metrics, for operators only: `Authorization: Bearer $OPERATOR_TOKEN`
 * (404 while OPERATOR_TOKEN is unset). A seller's session is no credential here, and nothing
 * on the public port serves metrics without it. Point Prometheus at it with a bearer token.
 */
@Public()
@UseGuards(OperatorGuard)
@Controller('admin/metrics')
export class AdminMetricsController {
  constructor(private readonly metrics: ProcessMetrics) {}

  @Get()
  @Header('Content-Type', METRICS_CONTENT_TYPE)
  async scrape(): Promise<string> {
    return (await this.metrics.render()).body;
  }
}
