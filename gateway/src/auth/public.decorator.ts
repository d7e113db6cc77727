import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC_KEY = 'isPublic';
/** Opens a route to signed-out callers; every other route needs a live session. */
export const Public = () => SetMetadata(IS_PUBLIC_KEY, true);

export const SESSION_OPTIONAL_KEY = 'sessionOptional';
/**
 * The session guard still checks the cookie (503 when it cannot), but a signed-out caller gets
 * through with no user instead of a 401: for routes whose answer is "signed out" itself.
 */
export const SessionOptional = () => SetMetadata(SESSION_OPTIONAL_KEY, true);
