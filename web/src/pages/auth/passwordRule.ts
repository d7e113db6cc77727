import { MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT_MESSAGE } from '@pod/contracts';

// The gateway's one password-length rule (@pod/contracts), checked here before the call.
export { MIN_PASSWORD_LENGTH };
export const PASSWORD_TOO_SHORT = PASSWORD_TOO_SHORT_MESSAGE;
export const PASSWORD_HINT = `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
