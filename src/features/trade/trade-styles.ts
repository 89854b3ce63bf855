import { css } from 'styled-system/css';

export const grid = css({ display: 'grid', gap: '4', minWidth: 0 });
export const card = css({ bg: 'bg', borderRadius: 'lg', p: '4', minWidth: 0, display: 'grid', gap: '2' });
export const muted = css({ color: 'fg.muted', fontSize: 'sm', overflowWrap: 'anywhere' });
export const pager = css({ display: 'flex', gap: '3', alignItems: 'center', mt: '3' });
export const sectionTitle = css({ fontWeight: 'semibold', fontSize: 'lg' });
