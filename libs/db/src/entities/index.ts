import { OAuthStateEntity } from './oauth-state.entity';
import { ProviderConnectionEntity } from './provider-connection.entity';
import { SessionEntity } from './session.entity';
import { UserEntity } from './user.entity';

export { OAuthStateEntity, ProviderConnectionEntity, SessionEntity, UserEntity };
export const ALL_ENTITIES = [UserEntity, SessionEntity, ProviderConnectionEntity, OAuthStateEntity];
