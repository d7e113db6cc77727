import { Module } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AppConfig } from '@pod/config';
import { ConnectionsRepository } from '@pod/db';
import { TokenCipher } from '@pod/crypto';
import { AuthModule } from '../auth/auth.module';
import { ConnectionEvents } from './connection-events';
import { ConnectionsStatusService } from './connections-status.service';
import { ConnectionsController, PrintifyShopsController } from './connections.controller';
import { EtsyConnectService } from './etsy-connect.service';
import { OAuthStateStore } from './oauth-state.store';
import { PrintifyConnectService } from './printify-connect.service';
import { providerClientProviders } from './provider-clients';
import { PRINTIFY_API } from './provider-ports';

/** Connecting Etsy (OAuth 2.0 + PKCE) and Printify (personal access token), status and disconnecting. */
@Module({
  imports: [AuthModule],
  controllers: [ConnectionsController, PrintifyShopsController],
  providers: [
    {
      provide: TokenCipher,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => TokenCipher.fromConfig(config),
    },
    {
      provide: ConnectionsRepository,
      inject: [getDataSourceToken(), TokenCipher],
      useFactory: (dataSource: DataSource, cipher: TokenCipher) => new ConnectionsRepository(dataSource, cipher),
    },
    ...providerClientProviders,
    OAuthStateStore,
    EtsyConnectService,
    PrintifyConnectService,
    ConnectionsStatusService,
    ConnectionEvents,
  ],
  exports: [
    ConnectionEvents,
    ConnectionsRepository,
    TokenCipher,
    EtsyConnectService,
    PrintifyConnectService,
    OAuthStateStore,
    PRINTIFY_API,
  ],
})
export class ConnectionsModule {}
