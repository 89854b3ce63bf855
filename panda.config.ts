import { defineConfig } from '@pandacss/dev';

/**
 * The design tokens every screen reuses. Colours are named by role, not by hue, so a screen says
 * `color: 'fg.muted'` and a rebrand touches this file only.
 */
export default defineConfig({
  preflight: true,
  jsxFramework: 'react',
  include: ['./src/**/*.{ts,tsx}'],
  exclude: ['./src/styled-system/**'],
  outdir: 'src/styled-system',
  conditions: {
    extend: {
      phone: '@media screen and (max-width: 768px)',
    },
  },
  theme: {
    extend: {
      keyframes: {
        drawerIn: {
          '0%': { transform: 'translateX(-100%)' },
          '100%': { transform: 'translateX(0)' },
        },
        // the loading bar's slide, moved by transform (the compositor's work) rather than by `left`, which laid the
        // page out again at every frame while the session and the first chunks loaded: from just out of the track
        // on the left (its own width, 40% of the track) to just out on the right (100% of the track: 250% of its own)
        loaderSlide: {
          '0%': { transform: 'translateX(-100%)' },
          '100%': { transform: 'translateX(250%)' },
        },
      },
      breakpoints: {
        // the spec's mobile breakpoint is "width up to 768": desktop starts above it
        desktop: '769px',
      },
      tokens: {
        // the placeholders' pulse (src/ui/skeleton.tsx): one name for its timing wherever it pulses
        animations: {
          pulse: { value: 'pulse 1.5s cubic-bezier(0.4, 0, 0.6, 1) infinite' },
        },
        colors: {
          brand: {
            50: { value: '#eef4ff' },
            100: { value: '#d9e6ff' },
            500: { value: '#2f6bff' },
            600: { value: '#1f55e0' },
            700: { value: '#1842b0' },
            900: { value: '#0b1f55' },
          },
          ink: {
            900: { value: '#111827' },
            700: { value: '#374151' },
            500: { value: '#4b5563' },
            300: { value: '#d1d5db' },
            100: { value: '#f3f4f6' },
            50: { value: '#f9fafb' },
          },
          success: { value: '#15803d' },
          danger: { value: '#b91c1c' },
          warning: { value: '#b45309' },
        },
        spacing: {
          menuCollapsed: { value: '60px' },
          menuExpanded: { value: '200px' },
        },
        radii: {
          sm: { value: '4px' },
          md: { value: '8px' },
          lg: { value: '12px' },
          pill: { value: '999px' },
        },
        sizes: {
          menuCollapsed: { value: '60px' },
          menuExpanded: { value: '200px' },
          datePicker: { value: '280px' },
        },
      },
      semanticTokens: {
        colors: {
          bg: { value: '#ffffff' },
          'bg.subtle': { value: '{colors.ink.50}' },
          'bg.muted': { value: '{colors.ink.100}' },
          fg: { value: '{colors.ink.900}' },
          'fg.muted': { value: '{colors.ink.500}' },
          border: { value: '{colors.ink.300}' },
          accent: { value: '{colors.brand.600}' },
          'accent.hover': { value: '{colors.brand.700}' },
          'accent.fg': { value: '#ffffff' },
          error: { value: '{colors.danger}' },
          focus: { value: '{colors.brand.500}' },
        },
      },
    },
  },
  globalCss: {
    'html, body': {
      fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
      color: 'fg',
      bg: 'bg.subtle',
    },
    ':focus-visible': { outline: '2px solid', outlineColor: 'focus', outlineOffset: '2px' },
  },
});
