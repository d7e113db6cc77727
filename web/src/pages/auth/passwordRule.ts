import type { MinPasswordLength, PasswordTooShortMessage } from '@pod/contracts';

// The gateway's rule (@pod/contracts' MIN_PASSWORD_LENGTH), checked here before the call.
// The web app takes @pod/contracts as types only: these literals are pinned to its types, so
// they cannot drift from the server's values without failing the type check.
export const MIN_PASSWORD_LENGTH: MinPasswordLength = 8;
export const PASSWORD_TOO_SHORT: PasswordTooShortMessage = 'Password must be at least 8 characters long';
export const PASSWORD_HINT = `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
