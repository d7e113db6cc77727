import { ApiError, errorMessage, hasErrorCode } from '../../hooks/api/client';
import type { LoginInput, RegisterInput } from '../../hooks/api/types';
import { MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT } from './passwordRule';

/** What the form alert says, and the fields it is about (marked invalid, described by it). */
export interface FormProblem<Field extends string> {
  message: string;
  fields: readonly Field[];
}

export type LoginField = keyof LoginInput;
export type SignupField = keyof RegisterInput;

const FILL_ALL = 'Please fill in all fields';

/** The empty ones of `fields`; names and email must hold more than spaces, passwords anything. */
function emptyFields<Form extends Partial<RegisterInput>>(form: Form, fields: readonly (keyof Form & string)[]) {
  return fields.filter((name) => {
    const value = String(form[name] ?? '');
    return name === 'password' || name === 'confirmPassword' ? !value : !value.trim();
  });
}

const LOGIN_FIELDS: readonly LoginField[] = ['email', 'password'];
const SIGNUP_FIELDS: readonly SignupField[] = ['firstName', 'lastName', 'email', 'password', 'confirmPassword'];

/** Spec §5: both fields are required. */
export function validateLogin(form: LoginInput): FormProblem<LoginField> | null {
  const empty = emptyFields(form, LOGIN_FIELDS);
  return empty.length ? { message: FILL_ALL, fields: empty } : null;
}

/** A refused sign-in: wrong credentials concern both fields; a failure of the server, neither. */
export function loginProblem(error: unknown): FormProblem<LoginField> {
  const message = errorMessage(error, 'Login failed');
  const aboutCredentials = hasErrorCode(error, 'invalid_credentials', 'validation_failed');
  return { message, fields: aboutCredentials ? ['email', 'password'] : [] };
}

/** Spec §5, in order: all fields, passwords match, then the one minimum length. */
export function validateSignup(form: RegisterInput): FormProblem<SignupField> | null {
  const empty = emptyFields(form, SIGNUP_FIELDS);
  if (empty.length) return { message: FILL_ALL, fields: empty };
  if (form.password !== form.confirmPassword) return { message: "Passwords don't match", fields: ['confirmPassword'] };
  if (form.password.length < MIN_PASSWORD_LENGTH) return { message: PASSWORD_TOO_SHORT, fields: ['password'] };
  return null;
}

const SIGNUP_FIELD_NAMES: ReadonlySet<string> = new Set(SIGNUP_FIELDS);

/** A refused sign-up: the server's message, marking the field its error body names. */
export function signupProblem(error: unknown, form: RegisterInput): FormProblem<SignupField> {
  const message = errorMessage(error, 'Registration failed');
  // The server refuses empty fields too (spaces only, which the form lets through): mark them all.
  const empty = emptyFields(form, SIGNUP_FIELDS);
  if (hasErrorCode(error, 'validation_failed') && empty.length) return { message, fields: empty };
  const field = error instanceof ApiError ? error.field : undefined;
  return { message, fields: field && SIGNUP_FIELD_NAMES.has(field) ? [field as SignupField] : [] };
}
