import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { PROVIDER_MESSAGES } from './provider-messages';

const REPO = resolve(__dirname, '../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.(spec|int-spec|e2e-spec)\.ts$/.test(name) ? [path] : [];
  });
}

/** The fixed wording of every message, and the fixed parts of the templated ones. */
const WORDING = [
  PROVIDER_MESSAGES.emptyPrintifyToken,
  PROVIDER_MESSAGES.invalidPrintifyToken,
  PROVIDER_MESSAGES.selectPrintifyShop,
  ...PROVIDER_MESSAGES.providerBusy('Etsy', 7)
    .split(/Etsy|7/)
    .filter((part) => part.trim().length > 8),
  ...PROVIDER_MESSAGES.providerUnavailable('Etsy')
    .split('Etsy')
    .filter((part) => part.trim().length > 8),
];

describe('user-visible provider messages', () => {
  it('are written once: the gateway and the web app import them instead of spelling them out', () => {
    const copies: string[] = [];
    for (const file of [...sourceFiles(join(REPO, 'gateway/src')), ...sourceFiles(join(REPO, 'web/src'))]) {
      const text = readFileSync(file, 'utf8');
      for (const wording of WORDING) if (text.includes(wording)) copies.push(`${relative(REPO, file)}: "${wording}"`);
    }
    expect(copies).toEqual([]);
  });

  it('name the provider and the wait', () => {
    expect(PROVIDER_MESSAGES.providerBusy('Printify', 5)).toBe(
      'Printify is busy right now. Please try again in 5 seconds.',
    );
    expect(PROVIDER_MESSAGES.providerUnavailable('Etsy')).toBe('Etsy did not answer. Please try again.');
  });
});
