import { deriveKey } from './derived-keys';
import { loadConfig } from './load-config';
import { tokenKeyProblems, tokenKeysOf } from './token-keys';

const APP_SECRET = 'a'.repeat(40);
const NEW_SECRET = 'b'.repeat(40);

describe('token-encryption keys (security plan item 27)', () => {
  it('unset: version 1 from APP_SECRET, as before rotation existed', () => {
    const { keys, current } = tokenKeysOf({ APP_SECRET });
    expect(current).toBe(1);
    expect([...keys.keys()]).toEqual([1]);
    expect(keys.get(1)).toEqual(deriveKey(APP_SECRET, 'token-encryption-v1'));
  });

  it('lists versions; current is the highest unless set; each version its own key', () => {
    const listed = { APP_SECRET, TOKEN_ENCRYPTION_KEYS: ` 2:${NEW_SECRET} , 1:app-secret` };
    const { keys, current } = tokenKeysOf(listed);
    expect(current).toBe(2);
    expect(keys.get(1)).toEqual(deriveKey(APP_SECRET, 'token-encryption-v1'));
    expect(keys.get(2)).toEqual(deriveKey(NEW_SECRET, 'token-encryption-v2'));
    // The rollout's first step: v2 known everywhere before anything is written under it.
    expect(tokenKeysOf({ ...listed, TOKEN_ENCRYPTION_KEY_CURRENT: 1 }).current).toBe(1);
    // v1 removed.
    expect([...tokenKeysOf({ APP_SECRET, TOKEN_ENCRYPTION_KEYS: `2:${NEW_SECRET}` }).keys.keys()]).toEqual([2]);
  });

  it('says what is wrong without repeating a secret', () => {
    const problems = (TOKEN_ENCRYPTION_KEYS: string, TOKEN_ENCRYPTION_KEY_CURRENT?: number) =>
      tokenKeyProblems({ APP_SECRET, TOKEN_ENCRYPTION_KEYS, TOKEN_ENCRYPTION_KEY_CURRENT });
    expect(problems('2:short-secret')).toEqual([
      'TOKEN_ENCRYPTION_KEYS: the secret of version 2 must be at least 32 characters',
    ]);
    expect(problems(`${NEW_SECRET}`)).toEqual(['TOKEN_ENCRYPTION_KEYS entry 1 must read <version>:<secret>']);
    expect(problems(`2:${NEW_SECRET},2:${NEW_SECRET}`)).toEqual(['TOKEN_ENCRYPTION_KEYS lists version 2 twice']);
    expect(problems('2:app-secret')).toEqual(['TOKEN_ENCRYPTION_KEYS: only version 1 may be app-secret']);
    expect(problems(`2:${NEW_SECRET}`, 1)).toEqual([
      'TOKEN_ENCRYPTION_KEY_CURRENT is 1, a version TOKEN_ENCRYPTION_KEYS does not list',
    ]);
    expect(JSON.stringify(problems(`x:${NEW_SECRET}`))).not.toContain(NEW_SECRET);
  });

  it('is checked with the rest of the configuration at start', () => {
    expect(() => loadConfig({ APP_SECRET, TOKEN_ENCRYPTION_KEYS: '3:too-short' })).toThrow(
      /the secret of version 3 must be at least 32 characters/,
    );
    expect(loadConfig({ APP_SECRET, TOKEN_ENCRYPTION_KEYS: `2:${NEW_SECRET}` }).TOKEN_ENCRYPTION_KEYS).toContain('2:');
  });
});
