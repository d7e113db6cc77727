import { parseBool, parseIntParam, type Query } from '../core/http';

/** Etsy's lower bound for every epoch-second filter. */
export const MIN_EPOCH = 946_684_800;
export const MAX_OFFSET = 12_000;

export class ParamError extends Error {}

export function intParam(query: Query, name: string, fallback: number, min: number, max: number): number;
export function intParam(query: Query, name: string, fallback: undefined, min: number, max: number): number | undefined;
export function intParam(
  query: Query,
  name: string,
  fallback: number | undefined,
  min: number,
  max: number,
): number | undefined {
  const value = parseIntParam(query[name]);
  if (value === undefined) return fallback;
  if (value === null) throw new ParamError(`Invalid value for ${name}: expected an integer.`);
  if (value < min) throw new ParamError(`${name} must be greater than or equal to ${min}.`);
  if (value > max) throw new ParamError(`${name} must be less than or equal to ${max}.`);
  return value;
}

export function boolParam(query: Query, name: string): boolean | undefined {
  const value = parseBool(query[name]);
  if (value === null) throw new ParamError(`Invalid value for ${name}: expected true, false, 1 or 0.`);
  return value;
}

export function epochParam(query: Query, name: string): number | undefined {
  return intParam(query, name, undefined, MIN_EPOCH, 4_102_444_800);
}

export function paging(query: Query): { limit: number; offset: number } {
  return { limit: intParam(query, 'limit', 25, 1, 100), offset: intParam(query, 'offset', 0, 0, MAX_OFFSET) };
}

/** Comma-separated ids, as Etsy takes arrays in a query. */
export function idListParam(query: Query, name: string): number[] {
  const raw = query[name];
  if (raw === undefined || raw === '') throw new ParamError(`${name} is required.`);
  const ids = raw.split(',').map((part) => part.trim());
  if (ids.some((id) => !/^\d{1,16}$/.test(id)))
    throw new ParamError(`Invalid value for ${name}: expected comma-separated integers.`);
  return ids.map(Number);
}
