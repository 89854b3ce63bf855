import { css } from 'styled-system/css';

export const stack = css({ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '4', minWidth: 0 });
// minmax(0, 1fr): a wide table scrolls inside its card instead of widening the page
export const card = css({
  bg: 'bg',
  borderRadius: 'lg',
  p: { base: '4', desktop: '5' },
  display: 'grid',
  gridTemplateColumns: 'minmax(0, 1fr)',
  gap: '3',
  minWidth: 0,
});
export const muted = css({ color: 'fg.muted', fontSize: 'sm', overflowWrap: 'anywhere' });
export const sectionTitle = css({ fontWeight: 'semibold', fontSize: 'md' });
export const fieldGrid = css({
  display: 'grid',
  gap: '3',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 14rem), 1fr))',
});
/** A ticked choice (a checkbox or radio inside its label): ticket types, split, restrictions, templates. */
export const choice = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1.5',
  px: '3',
  py: '2',
  border: '1px solid {colors.border}',
  borderRadius: 'md',
  fontSize: 'sm',
  cursor: 'pointer',
  '&:has(input:checked)': { borderColor: 'accent', bg: 'brand.50' },
  '&:has(input:focus-visible)': { outline: '2px solid', outlineColor: 'focus' },
});
