import { findUnsafeText, isUnsafeText } from './unsafe-text';

describe('unsafe text', () => {
  it.each(['a\u0000b', '\ud800', 'x\ud800y', '\udc00', 'a\udc00\ud800b'])('refuses %j', (text) => {
    expect(isUnsafeText(text)).toBe(true);
  });

  it.each(['', 'plain', 'émile €', '🎨 paired', 'tab\tand\nnewline'])('accepts %j', (text) => {
    expect(isUnsafeText(text)).toBe(false);
  });

  it('names the first field holding it, nested or in an array; a bad key names its parent', () => {
    expect(findUnsafeText({ a: 'ok', b: { c: ['ok', 'x\u0000'] } })).toEqual(['b', 'c', '1']);
    expect(findUnsafeText({ a: { ['k\u0000']: 1 } })).toEqual(['a']);
    expect(findUnsafeText('\ud800', ['token'])).toEqual(['token']);
    expect(findUnsafeText({ a: 1, b: null, c: ['fine'] })).toBeNull();
  });
});
