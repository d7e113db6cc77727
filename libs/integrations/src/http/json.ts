/**
 * JSON.parse that keeps integers beyond 2^53 exact: such a literal (an int64 id) becomes a
 * string holding its digits instead of a rounded number. Everything else parses as usual.
 * Only number tokens outside strings are touched, so text inside string values never changes.
 */
export function parseJsonPreservingBigIntegers(text: string): unknown {
  return JSON.parse(quoteUnsafeIntegers(text));
}

export function quoteUnsafeIntegers(text: string): string {
  let out = '';
  let copiedUpTo = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i += 1;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */) i += 2;
        else if (d === 0x22) {
          i += 1;
          break;
        } else i += 1;
      }
      continue;
    }
    if (c === 0x2d /* - */ || (c >= 0x30 && c <= 0x39)) {
      const start = i;
      i += 1;
      let integer = true;
      while (i < n) {
        const d = text.charCodeAt(i);
        if (d >= 0x30 && d <= 0x39) i += 1;
        else if (d === 0x2e || d === 0x65 || d === 0x45 || d === 0x2b || d === 0x2d) {
          integer = false;
          i += 1;
        } else break;
      }
      const token = text.slice(start, i);
      // 16+ characters is the only way to exceed 2^53 - 1 (16 digits); check exactly then.
      if (integer && token.length >= 16 && /^-?\d+$/.test(token) && !Number.isSafeInteger(Number(token))) {
        out += `${text.slice(copiedUpTo, start)}"${token}"`;
        copiedUpTo = i;
      }
      continue;
    }
    i += 1;
  }
  return copiedUpTo === 0 ? text : out + text.slice(copiedUpTo);
}
