import { defineSlotRecipe } from '@chakra-ui/react';

// Toasts: a white panel with a coloured accent, so every type keeps AA text contrast
// (Chakra's default solid green fails it).
export const toastRecipe = defineSlotRecipe({
  slots: ['root', 'title', 'description', 'indicator', 'actionTrigger', 'closeTrigger'],
  base: {
    root: {
      bg: 'bg.panel',
      color: 'fg',
      borderWidth: '1px',
      borderColor: 'border',
      borderInlineStartWidth: '4px',
      borderInlineStartColor: 'brand.solid',
      boxShadow: 'lg',
      '&[data-type=success]': {
        bg: 'bg.panel',
        color: 'fg',
        borderInlineStartColor: 'green.600',
        '--toast-trigger-bg': 'colors.bg.muted',
        '--toast-border-color': 'colors.border',
      },
      '&[data-type=error]': {
        bg: 'bg.panel',
        color: 'fg',
        borderInlineStartColor: 'red.600',
        '--toast-trigger-bg': 'colors.bg.muted',
        '--toast-border-color': 'colors.border',
      },
      '&[data-type=warning]': {
        bg: 'bg.panel',
        color: 'fg',
        borderInlineStartColor: 'orange.500',
        '--toast-trigger-bg': 'colors.bg.muted',
        '--toast-border-color': 'colors.border',
      },
    },
    title: { fontWeight: 'semibold' },
    description: { opacity: '1', color: 'fg.muted', display: 'block' },
    indicator: {
      '[data-type=success] &': { color: 'fg.success' },
      '[data-type=error] &': { color: 'fg.error' },
      '[data-type=warning] &': { color: 'fg.warning' },
    },
    closeTrigger: { color: 'fg.muted' },
  },
});
