import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './build-plugins/precompress';

// The gateway serves /api and, in production, this build (web/dist). In development Vite
// proxies /api (and the demo's Etsy consent page, /sandbox) to the gateway so the session
// cookie stays same-origin; `npm run dev` gives the gateway PUBLIC_ORIGIN=http://127.0.0.1:5173,
// the origin its same-origin checks then expect.
export default defineConfig({
  plugins: [react(), precompress()],
  // The shared contracts and the domain are plain TypeScript: the web app bundles the values
  // it imports (user-visible messages, money formatting) straight from the source, as the server does.
  resolve: {
    alias: {
      '@pod/contracts': fileURLToPath(new URL('../libs/contracts/src/index.ts', import.meta.url)),
      // Pure code (money formatting, currency codes): the same functions as the server's.
      '@pod/domain': fileURLToPath(new URL('../libs/domain/src/index.ts', import.meta.url)),
    },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': { target: 'http://127.0.0.1:5000', changeOrigin: false },
      '/sandbox': { target: 'http://127.0.0.1:5000', changeOrigin: false },
    },
  },
  preview: {
    host: '127.0.0.1',
    port: 4173,
    proxy: {
      '/api': { target: 'http://127.0.0.1:5000', changeOrigin: false },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No source maps in the build: nothing to leak, and the gateway refuses *.map anyway.
    sourcemap: false,
    // Which source module became which chunk: the first-load browser test reads it.
    manifest: true,
    // The app must run under `script-src 'self'`: no inline scripts in the built HTML.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    // Two chunks carry a first visit: `vendor` (every library the entry imports statically:
    // React, the router, SWR, Chakra's core, Emotion; long-cached across our releases) and the
    // entry itself (layouts, landing page). Libraries only lazy pages use (dialogs, drawers,
    // tooltips, the shell's menus) stay with those pages, out of the public first load.
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'vendor', test: /node_modules[\\/]|rolldown[\\/]runtime/, tags: ['$initial'] },
            // Small controls that several lazy pages share ride in one chunk (their libraries stay
            // where they were): a chunk of each one's own would add its name to the entry's preload
            // map, which every first visit downloads (the landing budget, ADR 0038).
            {
              name: 'shared-controls',
              test: /src[\\/]components[\\/](ConfirmDialog|ReportRangeSelect)\.tsx$/,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
});
