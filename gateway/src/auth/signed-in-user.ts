import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { PublicUser } from '@pod/contracts';
import type { DisplayCurrencyCode } from '@pod/domain';

/** What the session guard puts on the request for a signed-in caller. */
export interface SignedInUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  currency: DisplayCurrencyCode;
  /** A "Try the demo" account (removed after 24 hours). */
  isDemo: boolean;
  /** Hash of the session id, to tell "this session" from the others. */
  sessionIdHash: string;
}

export const CurrentUser = createParamDecorator((_data: unknown, context: ExecutionContext): SignedInUser => {
  return context.switchToHttp().getRequest<{ user: SignedInUser }>().user;
});

export function publicUser(user: Omit<SignedInUser, 'sessionIdHash'>): PublicUser {
  return {
    id: user.id,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    currency: user.currency,
    isDemo: user.isDemo,
  };
}
