import { Column, type ValueTransformer } from 'typeorm';
import { minorUnits, parseCurrencyCode, type CurrencyCode, type MinorUnits } from '@pod/domain';

/** A stored amount outside JavaScript's safe-integer range: refused rather than silently rounded. */
export class UnsafeMinorUnitsError extends RangeError {
  constructor(value: unknown) {
    super(`${String(value)} is not a whole number of minor units within ±${Number.MAX_SAFE_INTEGER}`);
    this.name = 'UnsafeMinorUnitsError';
  }
}

/** Every integer text beyond 2^53 - 1 parses to 2^53 or more, which isSafeInteger refuses: no silent rounding. */
function toSafeMinorUnits(value: unknown): MinorUnits {
  const asNumber =
    typeof value === 'string' && /^-?\d+$/.test(value.trim())
      ? Number(value)
      : typeof value === 'bigint'
        ? Number(value)
        : value;
  if (typeof asNumber !== 'number' || !Number.isSafeInteger(asNumber)) throw new UnsafeMinorUnitsError(value);
  return minorUnits(asNumber);
}

/**
 * The one transformer of every money column: `bigint` integer minor units in PostgreSQL, a
 * safe-integer MinorUnits in JavaScript. pg returns bigint as a string (it may not fit a
 * number); anything beyond Number.MAX_SAFE_INTEGER, or not a whole number, throws both ways.
 */
export const minorUnitsTransformer: ValueTransformer = {
  to: (value: unknown) => (value === null || value === undefined ? value : toSafeMinorUnits(value)),
  from: (value: unknown) => (value === null || value === undefined ? null : toSafeMinorUnits(value)),
};

/** An ISO 4217 code stored as char(3); an unknown code read back throws rather than flowing on. */
export const currencyCodeTransformer: ValueTransformer = {
  to: (value: unknown) => (value === null || value === undefined ? value : parseCurrencyCode(value)),
  from: (value: unknown): CurrencyCode | null =>
    value === null || value === undefined ? null : parseCurrencyCode(value),
};

interface MoneyColumnOptions {
  /** The column name, e.g. `gross_amount_minor` (its currency column sits beside it). */
  name: string;
  nullable?: boolean;
  /** A whole number of minor units the column defaults to (e.g. 0 for a running sum). */
  default?: number;
}

/** A money amount column: `bigint` minor units, always next to a CurrencyColumn naming its currency. */
export function MinorUnitsColumn(options: MoneyColumnOptions): PropertyDecorator {
  return Column({
    name: options.name,
    type: 'bigint',
    nullable: options.nullable ?? false,
    default: options.default,
    transformer: minorUnitsTransformer,
  });
}

/** The ISO 4217 currency of the amounts beside it, e.g. `currency` or `shop_currency`. */
export function CurrencyColumn(options: MoneyColumnOptions): PropertyDecorator {
  return Column({
    name: options.name,
    type: 'char',
    length: 3,
    nullable: options.nullable ?? false,
    transformer: currencyCodeTransformer,
  });
}
