import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The gateway serves /api and, in production, this build (web/dist). In development Vite
// proxies /api (and the demo's Etsy consent page, /sandbox) to the gateway so the session
// cookie stays same-origin; `npm run dev` gives the gateway PUBLIC_ORIGIN=http://127.0.0.1:5173,
// the origin its same-origin checks then expect.
export default defineConfig({
  plugins: [react()],
  // The shared contracts are plain TypeScript: the web app bundles the values it imports
  // (user-visible messages) straight from the source, as the server does.
  resolve: {
    alias: { '@pod/contracts': fileURLToPath(new URL('../libs/contracts/src/index.ts', import.meta.url)) },
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
    sourcemap: true,
    // The app must run under `script-src 'self'`: no inline scripts in the built HTML.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    // Vendor code in its own long-cached chunks; the UI kit alone is about 500 kB.
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|react-router|react-router-dom|scheduler|swr|use-sync-external-store)[\\/]/ },
            { name: 'ui', test: /node_modules[\\/](@chakra-ui|@ark-ui|@zag-js|@emotion|@floating-ui|@internationalized|@pandacss|@swc|stylis|react-icons)[\\/]/ },
          ],
        },
      },
    },
  },
});
