import { defineSemanticTokens, defineTokens } from '@chakra-ui/react';

// The only place with raw colour values. Pages use semantic tokens (fg, bg, border,
// brand.*) or colour palettes, never hex codes.
export const colors = defineTokens.colors({
  brand: {
    50: { value: '#f5f4ff' },
    100: { value: '#ebe9ff' },
    200: { value: '#d7d3ff' },
    300: { value: '#b8b1ff' },
    400: { value: '#928aff' },
    500: { value: '#7a70ff' },
    600: { value: '#635bff' },
    700: { value: '#5146e0' },
    800: { value: '#4237b5' },
    900: { value: '#362f8c' },
    950: { value: '#201b54' },
  },
  // A cool slate grey replaces Chakra's neutral grey for a crisper dashboard look.
  gray: {
    50: { value: '#f6f9fc' },
    100: { value: '#eef2f7' },
    200: { value: '#e3e8ee' },
    300: { value: '#c1c9d2' },
    400: { value: '#a3acb9' },
    500: { value: '#697386' },
    600: { value: '#4f566b' },
    700: { value: '#3c4257' },
    800: { value: '#2a2f45' },
    900: { value: '#1a1f36' },
    950: { value: '#0a2540' },
  },
});

export const fonts = defineTokens.fonts({
  heading: {
    value: `'Inter Variable', ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif`,
  },
  body: { value: `'Inter Variable', ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif` },
});

export const semanticColors = defineSemanticTokens.colors({
  brand: {
    solid: { value: '{colors.brand.600}' },
    contrast: { value: '{colors.white}' },
    fg: { value: '{colors.brand.700}' },
    muted: { value: '{colors.brand.100}' },
    subtle: { value: '{colors.brand.50}' },
    emphasized: { value: '{colors.brand.200}' },
    focusRing: { value: '{colors.brand.500}' },
    border: { value: '{colors.brand.200}' },
  },
  fg: {
    DEFAULT: { value: '{colors.gray.900}' },
    muted: { value: '{colors.gray.600}' },
    // Kept readable (WCAG AA) even though pages rarely use it.
    subtle: { value: '{colors.gray.500}' },
    error: { value: '{colors.red.700}' },
    success: { value: '{colors.green.700}' },
    warning: { value: '{colors.orange.700}' },
    info: { value: '{colors.blue.700}' },
  },
  bg: {
    canvas: { value: '{colors.gray.50}' },
    sidebar: { value: '{colors.white}' },
    hero: { value: '{colors.gray.950}' },
  },
  heroFg: {
    DEFAULT: { value: '{colors.white}' },
    muted: { value: '{colors.gray.200}' },
    accent: { value: '{colors.brand.300}' },
  },
});
