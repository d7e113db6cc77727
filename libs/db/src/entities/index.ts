import { SessionEntity } from './session.entity';
import { UserEntity } from './user.entity';

export { SessionEntity, UserEntity };
export { DISPLAY_CURRENCIES, type DisplayCurrency } from './user.entity';
export const ALL_ENTITIES = [UserEntity, SessionEntity];
