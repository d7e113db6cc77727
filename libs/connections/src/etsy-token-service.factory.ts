import type { DataSource } from 'typeorm';
import type { TokenCipher } from '@pod/crypto';
import { ReauthRequiredError, type EtsyAuth } from '@pod/integrations';
import {
  EtsyTokenService,
  type EtsyAccessTokens,
  type EtsyTokenRefresher,
  type TokenEventLogger,
} from './etsy-token-service';

// The token sources this library hands out are what the Etsy client asks for.
const _fitsTheClient = (tokens: EtsyAccessTokens): EtsyAuth => tokens;
void _fitsTheClient;

/**
 * The EtsyTokenService of one process (the gateway, each etsy-sync replica), wired to the
 * real Etsy client: its refresh grant, and its ReauthRequiredError for "connect again".
 */
export function createEtsyTokenService(deps: {
  dataSource: DataSource;
  cipher: TokenCipher;
  etsy: EtsyTokenRefresher;
  logger?: TokenEventLogger;
}): EtsyTokenService {
  return new EtsyTokenService({
    dataSource: deps.dataSource,
    cipher: deps.cipher,
    refresher: deps.etsy,
    logger: deps.logger,
    reauthRequired: (message) => new ReauthRequiredError('etsy', message),
    isReauthRequired: (error) => error instanceof ReauthRequiredError,
  });
}
