import { divideHalfEven } from '../exchange/decimal';
import { money, MoneyError, type Money } from '../money';

// Every percentage the profit engine applies rounds through divideHalfEven, the one
// half-to-even rule of the exchange math, so conversions and fees round alike.

/** A rate in basis points (1/100 of a percent: 6.5% = 650). */
export type BasisPoints = number & { readonly __basisPoints: unique symbol };

export function basisPoints(value: number): BasisPoints {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new MoneyError(`${value} is not a whole, non-negative number of basis points`);
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
