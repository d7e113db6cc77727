import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config';

// Component tests (issue 19 "Web tests"): the app's own Vite config (aliases, React), in jsdom,
// every test rendered inside the app's providers (src/test/render.tsx). `npm run test:web`.
export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['src/test/setup.ts'],
      restoreMocks: true,
      unstubGlobals: true,
    },
  }),
);
