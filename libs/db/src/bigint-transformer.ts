import type { ValueTransformer } from 'typeorm';

/**
 * PostgreSQL bigint arrives from `pg` as a string. Money columns are integers in minor units,
 * so convert to number and refuse anything a JS number cannot hold exactly.
 */
export const bigintTransformer: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null): number | null => {
    if (value === null || value === undefined) return null;
    const parsed = Number(value);
    if (!Number.isSafeInteger(parsed)) throw new RangeError(`bigint value ${value} is outside the safe integer range`);
    return parsed;
  },
};
