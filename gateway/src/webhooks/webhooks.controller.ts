import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Public } from '../auth/public.decorator';
import { ProviderWebhookBody } from '../http/body-limits';
import { WebhookIntakeService, type WebhookAck } from './webhook-intake.service';

/** One header's value (the first, if repeated). */
function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The raw body the JSON parser hands provider webhook routes (empty when none was sent). */
function rawBody(request: FastifyRequest): Buffer {
  return Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
}

/**
 * Deliveries from Printify and Etsy: no session and no same-origin check (providers are not
 * browsers), a signature over the raw body instead; 64 KiB at most, JSON only.
 */
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly intake: WebhookIntakeService) {}

  /** `connectionKey`: the unguessable key in the URL Printify was given for one connection. */
  @Public()
  @ProviderWebhookBody()
  @Post('printify/:connectionKey')
  @HttpCode(200)
  printify(@Param('connectionKey') connectionKey: string, @Req() request: FastifyRequest): Promise<WebhookAck> {
    return this.intake.printify(connectionKey, header(request, 'x-pfy-signature'), rawBody(request));
  }

  /** The app's one Etsy webhook (set in Etsy's developer portal); the payload names the shop. */
  @Public()
  @ProviderWebhookBody()
  @Post('etsy')
  @HttpCode(200)
  etsy(@Req() request: FastifyRequest): Promise<WebhookAck> {
    return this.intake.etsy(
      {
        id: header(request, 'webhook-id'),
        timestamp: header(request, 'webhook-timestamp'),
        signature: header(request, 'webhook-signature'),
      },
      rawBody(request),
    );
  }
}
