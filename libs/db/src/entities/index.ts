import { OAuthStateEntity } from './oauth-state.entity';
import { ProviderConnectionEntity } from './provider-connection.entity';
import { SessionEntity } from './session.entity';
import { SyncCursorEntity } from './sync-cursor.entity';
import { SyncRunEntity } from './sync-run.entity';
import { UserEntity } from './user.entity';

export { OAuthStateEntity, ProviderConnectionEntity, SessionEntity, SyncCursorEntity, SyncRunEntity, UserEntity };
export const ALL_ENTITIES = [UserEntity, SessionEntity, ProviderConnectionEntity, OAuthStateEntity, SyncRunEntity, SyncCursorEntity];
