/**
 * Exact decimal arithmetic for exchange rates: a rate is a ratio of BigInts, never a binary
 * float (the ECB's "0.86503" is 86503/100000 exactly). Rounding happens once, at the end.
 */
export interface Ratio {
  /** Positive for a rate. */
  readonly num: bigint;
  /** Always positive. */
  readonly den: bigint;
}

export class DecimalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DecimalError';
  }
}

/** At most this many digits: a rate longer than this is not an ECB rate, and BigInt work stays small. */
const MAX_DIGITS = 30;

/** "0.86503" → 86503/100000. Refuses anything but a plain positive decimal (no sign, exponent or spaces). */
export function parsePositiveDecimal(text: string): Ratio {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match || text.length > MAX_DIGITS + 1) throw new DecimalError(`"${text}" is not a positive decimal`);
  const [, whole, fraction = ''] = match;
  const num = BigInt(whole + fraction);
  if (num === 0n) throw new DecimalError(`"${text}" is zero`);
  return { num, den: 10n ** BigInt(fraction.length) };
}

export const ONE: Ratio = { num: 1n, den: 1n };

/** `numerator / denominator` rounded to an integer, half to even (banker's rounding). */
export function divideHalfEven(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new DecimalError('division by zero');
  if (denominator < 0n) return divideHalfEven(-numerator, -denominator);
  const quotient = numerator / denominator; // truncates toward zero
  const remainder = numerator % denominator;
  if (remainder === 0n) return quotient;
  const twice = (remainder < 0n ? -remainder : remainder) * 2n;
  const away = numerator < 0n ? -1n : 1n;
  if (twice > denominator || (twice === denominator && quotient % 2n !== 0n)) return quotient + away;
  return quotient;
}

/**
 * The ratio as a decimal string with at most `significant` significant digits (half to even),
 * trailing zeros dropped: exact when it terminates within them ("0.86503"), else rounded
 * ("0.7537730568").
 */
export function ratioToDecimal(value: Ratio, significant = 10): string {
  if (value.num <= 0n || value.den <= 0n) throw new DecimalError('only positive ratios have a rate string');
  // Find the power of ten that puts `significant` digits before the point.
  let shift = 0;
  const digitsOf = (n: bigint) => n.toString().length;
  const integerDigits = digitsOf(value.num / value.den);
  if (value.num >= value.den) shift = significant - integerDigits;
  else {
    // Leading zeros after the point: count them by scaling until the integer part is non-zero.
    let zeros = 0;
    while ((value.num * 10n ** BigInt(zeros + 1)) / value.den === 0n) zeros += 1;
    shift = significant + zeros;
  }
  const scaled =
    shift >= 0
      ? divideHalfEven(value.num * 10n ** BigInt(shift), value.den)
      : divideHalfEven(value.num, value.den * 10n ** BigInt(-shift));
  return formatScaled(scaled, shift);
}

/** `scaled / 10^shift` as a plain decimal string without trailing zeros. */
function formatScaled(scaled: bigint, shift: number): string {
  if (shift <= 0) return (scaled * 10n ** BigInt(-shift)).toString();
  const digits = scaled.toString().padStart(shift + 1, '0');
  const whole = digits.slice(0, digits.length - shift);
  const fraction = digits.slice(digits.length - shift).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}
