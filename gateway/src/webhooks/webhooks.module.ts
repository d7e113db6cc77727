import { Module, type OnModuleInit } from '@nestjs/common';
import { ConnectionEvents } from '../connections/connection-events';
import { ConnectionsModule } from '../connections/connections.module';
import { DeliveryLedger } from './delivery-ledger';
import { PrintifySubscriptionsService } from './printify-subscriptions.service';
import { WebhookIntakeService } from './webhook-intake.service';
import { WebhooksController } from './webhooks.controller';

/**
 * /api/webhooks: provider deliveries in (verified, deduplicated, turned into refresh jobs), and
 * the Printify subscriptions made on connect and removed on disconnect (docs/adr/0006-webhooks.md).
 */
@Module({
  imports: [ConnectionsModule],
  controllers: [WebhooksController],
  providers: [DeliveryLedger, WebhookIntakeService, PrintifySubscriptionsService],
})
export class WebhooksModule implements OnModuleInit {
  constructor(
    private readonly events: ConnectionEvents,
    private readonly subscriptions: PrintifySubscriptionsService,
  ) {}

  onModuleInit(): void {
    this.events.onConnected(async (userId, _trigger, provider) => {
      if (provider === 'printify') await this.subscriptions.register(userId);
    });
    this.events.onDisconnecting(async (userId, provider) => {
      if (provider === 'printify') await this.subscriptions.unregister(userId);
    });
    // Another account or shop replaces the connection: the old shop's subscriptions go first
    // (with the old token), else Printify keeps posting to a key nobody holds.
    this.events.onReplacing(async (userId, provider) => {
      if (provider === 'printify') await this.subscriptions.unregister(userId);
    });
    this.events.onShopChanged(async (userId, provider) => {
      if (provider === 'printify') await this.subscriptions.register(userId);
    });
  }
}
