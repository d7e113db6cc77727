import { money, MoneyError, type Money } from '../money';

/**
 * Integer division rounded half to even, on bigints so a product of a large amount and a rate
 * never loses precision. Every percentage the profit engine applies goes through here, so one
 * rounding rule holds everywhere (the same as `fromRatio` in money.ts).
 */
export function divideHalfEven(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new MoneyError('division by zero');
  if (denominator < 0n) return divideHalfEven(-numerator, -denominator);
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  if (remainder === 0n) return quotient;
  const twice = (remainder < 0n ? -remainder : remainder) * 2n;
  const away = remainder < 0n ? -1n : 1n;
  if (twice > denominator || (twice === denominator && quotient % 2n !== 0n)) return quotient + away;
  return quotient;
}

/** A rate in basis points (1/100 of a percent: 6.5% = 650). */
export type BasisPoints = number & { readonly __basisPoints: unique symbol };

export function basisPoints(value: number): BasisPoints {
  if (!Number.isSafeInteger(value) || value < 0) throw new MoneyError(`${value} is not a whole, non-negative number of basis points`);
  return value as BasisPoints;
}

/** `amount × rate`, rounded half to even to a whole minor unit of the amount's currency. */
export function applyBasisPoints(amount: Money, rate: BasisPoints): Money {
  const result = divideHalfEven(BigInt(amount.amountMinor) * BigInt(rate), 10_000n);
  return money(Number(result), amount.currency);
}

/** `amount × numerator ÷ denominator`, rounded half to even (used to split a refund pro rata). */
export function scaleHalfEven(amountMinor: number, numerator: number, denominator: number): number {
  return Number(divideHalfEven(BigInt(amountMinor) * BigInt(numerator), BigInt(denominator)));
}
