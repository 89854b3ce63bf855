import { css } from 'styled-system/css';

/**
 * One line a listing: 26 px rows (21 on a 1280x800 screen), cells that never wrap (a long text ends in an ellipsis,
 * its whole in a title).
 */
export const ROW_HEIGHT = 26;

export const gridTable = css({
  width: '100%',
  tableLayout: 'fixed',
  borderCollapse: 'separate',
  borderSpacing: 0,
  fontSize: '13px',
  lineHeight: '1.2',
  '& th, & td': {
    whiteSpace: 'nowrap',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    px: '1',
    textAlign: 'left',
  },
  '& thead th': {
    position: 'sticky',
    top: 0,
    zIndex: 1,
    bg: 'bg',
    fontWeight: 'semibold',
    color: 'fg.muted',
    height: `${ROW_HEIGHT}px`,
    borderBottom: '1px solid {colors.border}',
  },
  '& tbody td': { height: `${ROW_HEIGHT}px`, borderBottom: '1px solid {colors.border}', py: 0 },
  '& tbody tr[data-selected=true] td': { bg: 'bg.muted' },
  '& tbody tr:focus-within td': { bg: 'bg.muted' },
  '& .num': { textAlign: 'right', fontVariantNumeric: 'tabular-nums' },
  // on a phone each listing is a small card of its cells
  _phone: {
    display: 'block',
    '& colgroup, & thead': { display: 'none' },
    '& tbody, & tr, & td': { display: 'block' },
    '& tbody tr': { py: '2', borderBottom: '1px solid {colors.border}', height: 'auto !important' },
    '& tbody td': { border: 'none', height: 'auto', py: '0.5', px: '0', whiteSpace: 'normal' },
    '& .num': { textAlign: 'left' },
  },
});

export const cellLabel = css({ display: 'none', _phone: { display: 'inline', color: 'fg.muted', mr: '1' } });
