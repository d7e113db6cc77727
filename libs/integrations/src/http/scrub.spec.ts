import { scrubSecrets } from './scrub';

describe('an upstream error message kept on a ProviderError', () => {
  it('loses every credential, in whatever notation the provider echoed it', () => {
    const echoed = scrubSecrets(
      'invalid request to https://api.printify.com/v1/shops.json?token=abc123: "password":"hunter2", api_key: k3y, Bearer eyJhbGciOi, keystring-sh4red',
      ['keystring-sh4red'],
    );
    expect(echoed).not.toMatch(/abc123|hunter2|k3y|eyJhbGciOi|keystring-sh4red/);
    expect(echoed).toContain('https://api.printify.com/v1/shops.json?[redacted]');
  });

  it('is one line of at most 300 characters, or nothing when there was none', () => {
    expect(scrubSecrets(`a\nb ${'x'.repeat(500)}`, [])).toHaveLength(300);
    expect(scrubSecrets(undefined, [])).toBeUndefined();
  });
});
