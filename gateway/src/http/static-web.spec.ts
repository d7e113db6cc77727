import { preferredEncoding } from './static-web';

describe('preferredEncoding', () => {
  it('prefers brotli, then gzip, as browsers announce them', () => {
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('gzip, deflate')).toBe('gzip');
    expect(preferredEncoding('*')).toBe('gzip');
    expect(preferredEncoding('BR;q=0.5')).toBe('br');
  });

  it('sends the original when nothing usable is accepted, or the encodings are refused with q=0', () => {
    expect(preferredEncoding(undefined)).toBeUndefined();
    expect(preferredEncoding('')).toBeUndefined();
    expect(preferredEncoding('identity')).toBeUndefined();
    expect(preferredEncoding('deflate')).toBeUndefined();
    expect(preferredEncoding('br;q=0, gzip;q=0.0')).toBeUndefined();
    expect(preferredEncoding('br;q=0, gzip')).toBe('gzip');
  });
});
