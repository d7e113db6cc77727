import { createSystem, defaultConfig, defineConfig } from '@chakra-ui/react';
import { colors, fonts, semanticColors } from './tokens';
import { toastRecipe } from './recipes';

const config = defineConfig({
  globalCss: {
    'html, body': { bg: 'bg.canvas', color: 'fg', minHeight: '100%' },
    '*:focus-visible': { outlineColor: 'brand.focusRing' },
  },
  theme: {
    tokens: { colors, fonts },
    semanticTokens: {
      colors: semanticColors,
      radii: { l1: { value: '{radii.sm}' }, l2: { value: '{radii.md}' }, l3: { value: '{radii.lg}' } },
    },
    slotRecipes: { toast: toastRecipe },
  },
});

// Built once; the app's single Chakra system.
export const system = createSystem(defaultConfig, config);
