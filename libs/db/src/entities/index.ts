import { OAuthStateEntity } from './oauth-state.entity';
import { ProviderConnectionEntity } from './provider-connection.entity';
import { SessionEntity } from './session.entity';
import { UserEntity } from './user.entity';

export { OAuthStateEntity, ProviderConnectionEntity, SessionEntity, UserEntity };
export { DISPLAY_CURRENCIES, type DisplayCurrency } from './user.entity';
export {
  CONNECTION_PROVIDERS,
  CONNECTION_STATUSES,
  type ConnectionProvider,
  type ConnectionStatus,
} from './provider-connection.entity';
export const ALL_ENTITIES = [UserEntity, SessionEntity, ProviderConnectionEntity, OAuthStateEntity];
