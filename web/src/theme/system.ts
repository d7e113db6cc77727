import { createSystem, defaultBaseConfig, defineConfig } from '@chakra-ui/react';
import {
  alertSlotRecipe,
  animationStyles,
  avatarSlotRecipe,
  breakpoints,
  cardSlotRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dialogSlotRecipe,
  drawerSlotRecipe,
  fieldSlotRecipe,
  globalCss,
  keyframes,
  layerStyles,
  listSlotRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  progressSlotRecipe,
  badgeRecipe,
  buttonRecipe,
  codeRecipe,
  containerRecipe,
  headingRecipe,
  iconRecipe,
  inputRecipe,
  linkRecipe,
  separatorRecipe,
  skeletonRecipe,
  spinnerRecipe,
  textareaRecipe,
  semanticTokens,
  switchSlotRecipe,
  tableSlotRecipe,
  textStyles,
  toastSlotRecipe,
  tokens,
  tooltipSlotRecipe,
} from '@chakra-ui/react/theme';
import { colors, fonts, semanticColors } from './tokens';
import { toastRecipe } from './recipes';

/**
 * Chakra's default theme without the recipes of components we do not use (date and colour
 * pickers, combobox, code block, tree view, …): about a quarter of the UI kit's weight, and it
 * would be in every visitor's first download. A component whose recipe is missing here renders
 * unstyled: when you use a new Chakra component, add its recipe (the names match, e.g. Tabs →
 * tabsSlotRecipe) — web/e2e/first-load.e2e-spec.ts checks every component imported in src.
 */
/**
 * The single-part recipes of the components the app renders, imported one by one: Chakra's
 * whole `recipes` map also carries keyboard keys, highlights, colour swatches, checkbox and radio
 * marks, skip links and input add-ons, in every first download for nothing (≤ 200 kB landing).
 */
const usedRecipes = {
  badge: badgeRecipe,
  button: buttonRecipe,
  code: codeRecipe,
  container: containerRecipe,
  heading: headingRecipe,
  icon: iconRecipe,
  input: inputRecipe,
  link: linkRecipe,
  separator: separatorRecipe,
  skeleton: skeletonRecipe,
  spinner: spinnerRecipe,
  textarea: textareaRecipe,
};

const chakraTheme = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  theme: {
    breakpoints,
    keyframes,
    tokens,
    semanticTokens,
    textStyles,
    layerStyles,
    animationStyles,
    recipes: usedRecipes,
    slotRecipes: {
      alert: alertSlotRecipe,
      avatar: avatarSlotRecipe,
      card: cardSlotRecipe,
      dialog: dialogSlotRecipe,
      drawer: drawerSlotRecipe,
      field: fieldSlotRecipe,
      list: listSlotRecipe,
      menu: menuSlotRecipe,
      nativeSelect: nativeSelectSlotRecipe,
      progress: progressSlotRecipe,
      switch: switchSlotRecipe,
      table: tableSlotRecipe,
      toast: toastSlotRecipe,
      tooltip: tooltipSlotRecipe,
    },
  },
});

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
    // Chakra's solid button lightens on hover (the solid colour at 90% over the page), which
    // drops white text under 4.5:1 on the brand colour; darken instead (colorPalette.fg is the
    // 700 shade).
    recipes: {
      button: {
        variants: { variant: { solid: { _hover: { bg: 'colorPalette.fg' }, _expanded: { bg: 'colorPalette.fg' } } } },
      },
    },
    slotRecipes: { toast: toastRecipe },
  },
});

// Built once; the app's single Chakra system.
export const system = createSystem(defaultBaseConfig, chakraTheme, config);
