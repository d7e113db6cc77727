import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC_KEY = 'isPublic';
/** Opens a route to signed-out callers; every other route needs a live session. */
export const Public = () => SetMetadata(IS_PUBLIC_KEY, true);
