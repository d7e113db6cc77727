import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ConnectionsModule } from '../connections/connections.module';
import { DemoAccountsService } from './demo-accounts.service';
import { DemoCleanupService } from './demo-cleanup.service';
import { DemoController } from './demo.controller';
import { DemoSandboxService } from './demo-sandbox.service';
import { SandboxAdminClient } from './sandbox-admin.client';
import { SandboxConsentProxyController } from './sandbox-consent.proxy';

/** The sandbox-backed demo: "Try the demo" accounts, their sandbox sellers, the consent page proxy and the 24-hour cleanup (run by the maintenance queue). */
@Module({
  imports: [AuthModule, ConnectionsModule],
  controllers: [DemoController, SandboxConsentProxyController],
  providers: [SandboxAdminClient, DemoAccountsService, DemoSandboxService, DemoCleanupService],
  exports: [DemoCleanupService],
})
export class DemoModule {}
