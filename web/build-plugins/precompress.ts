import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text formats only: fonts (woff2) and images are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/i;
/**
 * Below this a compressed copy saves next to nothing. 512, not 1 KiB: the bundler's shared
 * runtime chunk (about 900 bytes, in every first visit) halves under brotli for the cost of one
 * `content-encoding` header (ADR 0038).
 */
const MIN_BYTES = 512;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  // Dot folders (Vite's .vite/manifest.json) are build records, never served.
  const nested = await Promise.all(
    entries
      .filter((entry) => !entry.name.startsWith('.'))
      .map((entry) =>
        entry.isDirectory() ? filesUnder(join(dir, entry.name)) : Promise.resolve([join(dir, entry.name)]),
      ),
  );
  return nested.flat();
}

/** Writes `<file>.br` and `<file>.gz` next to one file, each only when it is smaller. */
async function precompressFile(file: string): Promise<void> {
  const original = await readFile(file);
  const [br, gz] = await Promise.all([
    brotli(original, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: original.length,
      },
    }),
    gzipAsync(original, { level: 9 }),
  ]);
  if (br.length < original.length) await writeFile(`${file}.br`, br);
  if (gz.length < original.length) await writeFile(`${file}.gz`, gz);
}

/**
 * Build-time compression: the gateway serves these files as they are (no compression per
 * request), picking `.br` or `.gz` by the browser's Accept-Encoding. Runs after Vite wrote
 * the whole output, public files (favicon) included.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'podprofit:precompress',
    apply: 'build',
    configResolved(config: ResolvedConfig) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = await filesUnder(outDir);
      const targets: string[] = [];
      for (const file of files) {
        if (COMPRESSIBLE.test(file) && (await stat(file)).size >= MIN_BYTES) targets.push(file);
      }
      await Promise.all(targets.map(precompressFile));
    },
  };
}
