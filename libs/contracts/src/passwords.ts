/** The one password-length rule: sign-up and change password, in the gateway and the browser (both import it). */
export const MIN_PASSWORD_LENGTH = 8;
export type MinPasswordLength = typeof MIN_PASSWORD_LENGTH;

export type PasswordTooShortMessage = `Password must be at least ${MinPasswordLength} characters long`;
export const PASSWORD_TOO_SHORT_MESSAGE: PasswordTooShortMessage = `Password must be at least ${MIN_PASSWORD_LENGTH} characters long`;
