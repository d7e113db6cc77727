/** Small checks for the admin API's JSON bodies; each throws BadInput with a readable reason. */
export class BadInput extends Error {}

export type Body = Record<string, unknown>;

export function objectBody(value: unknown): Body {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new BadInput('the body must be a JSON object');
  return value as Body;
}

export function optionalString(body: Body, name: string, pattern: RegExp, hint: string): string | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !pattern.test(value)) throw new BadInput(`${name} must be ${hint}`);
  return value;
}

export function requiredString(body: Body, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value === '') throw new BadInput(`${name} is required (a string)`);
  return value;
}

export function optionalInt(body: Body, name: string, min: number, max: number): number | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    throw new BadInput(`${name} must be an integer from ${min} to ${max}`);
  return value;
}

export function optionalEnum<T extends string>(body: Body, name: string, values: readonly T[]): T | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !values.includes(value as T))
    throw new BadInput(`${name} must be one of ${values.join(', ')}`);
  return value as T;
}

export function optionalBoolean(body: Body, name: string): boolean | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw new BadInput(`${name} must be true or false`);
  return value;
}

export function optionalNumber(body: Body, name: string, min: number, max: number): number | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max)
    throw new BadInput(`${name} must be a number from ${min} to ${max}`);
  return value;
}
