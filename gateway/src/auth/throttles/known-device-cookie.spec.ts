import { KnownDeviceTokens } from './known-device-cookie';

describe('known-device tokens', () => {
  const tokens = new KnownDeviceTokens(Buffer.alloc(32, 7));

  it('gives back the device id of a token it issued', () => {
    const id = KnownDeviceTokens.newDeviceId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(tokens.verify(tokens.issue(id))).toBe(id);
    expect(KnownDeviceTokens.newDeviceId()).not.toBe(id);
  });

  it('refuses made-up, altered, foreign-key and malformed tokens', () => {
    const id = KnownDeviceTokens.newDeviceId();
    const token = tokens.issue(id);
    const other = KnownDeviceTokens.newDeviceId();
    const flipped = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [
      undefined,
      '',
      id,
      `${other}.${token.split('.')[1]}`,
      flipped,
      `${token}x`,
      ` ${token}`,
      new KnownDeviceTokens(Buffer.alloc(32, 8)).issue(id),
    ]) {
      expect(tokens.verify(bad)).toBeUndefined();
    }
  });
});
