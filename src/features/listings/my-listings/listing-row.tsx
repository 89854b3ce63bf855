import type { MouseEvent, ReactNode } from 'react';
import { css } from 'styled-system/css';
import { INVENTORY_COLUMNS, type InventoryColumn, type Listing } from '../../../../machines/inventory.machine';
import { formatDate } from '../../../lib/format-date';
import { blockText } from '../../../lib/seats';
import { TicketTypeIcon } from '../../../ui/ticket-type-icon';
import { matchWhen, money, SPLIT_LABELS, STATUS_LABELS } from '../listing-format';
import { COLUMN_LABELS, SPLIT_SHORT } from './columns';
import { cellLabel } from './grid-styles';
import { PriceCell } from './price-cell';
import { RowMenu } from './row-menu';

export const listingLabel = (l: Listing) =>
  `${l.match_name}, ${l.Category}, ${blockText(l.ticket_block)}, row ${l.row}`;

/** One listing on one line: its match, the columns shown, its price (edited in place) and its menu. */
export function ListingRow({
  listing: l,
  index,
  shown,
  checked,
  onCheck,
  measure,
}: {
  listing: Listing;
  index: number;
  shown: (c: InventoryColumn) => boolean;
  checked: boolean;
  onCheck: (e: MouseEvent<HTMLInputElement>) => void;
  measure: (node: Element | null) => void;
}) {
  const label = listingLabel(l);
  const when = matchWhen(l.match_date, l.match_time);
  const cells: Record<InventoryColumn, ReactNode> = {
    category: l.Category,
    block: l.ticket_block,
    row: l.row,
    ticket_type: <TicketTypeIcon typeId={l.ticket_type_id} name={l.Ticket_type} />,
    quantity: l.quantity,
    sold: l.sold,
    // a word on screen, the whole rule to a screen reader (and in the cell's title)
    split: (
      <>
        <span aria-hidden="true">{SPLIT_SHORT[l.split_type]}</span>
        <span className={css({ srOnly: true })}>{SPLIT_LABELS[l.split_type]}</span>
      </>
    ),
    price: <PriceCell listing={l} label={label} />,
    face_value: l.face_value === null ? '-' : money(l.face_value, l.currency),
    status: STATUS_LABELS[l.status],
  };
  const numeric = new Set<InventoryColumn>(['quantity', 'sold', 'face_value']);
  const titled = new Set<InventoryColumn>(['category', 'block', 'row', 'split']);
  return (
    <tr
      ref={measure}
      data-index={index}
      aria-label={label}
      data-selected={checked || undefined}
      data-testid={`listing-${l.id}`}
    >
      <td>
        <input
          type="checkbox"
          data-col="select"
          aria-label={`Select ${label}`}
          checked={checked}
          onChange={() => undefined}
          onClick={onCheck}
          className={css({ width: '16px', height: '16px', m: '1' })}
        />
      </td>
      <td title={`${l.match_name}, ${when}`} className={css({ fontWeight: 'medium' })}>
        {l.match_name}
      </td>
      <td className={css({ color: 'fg.muted' })}>
        <span className={cellLabel}>Date:</span>
        {formatDate(l.match_date).replace(/,| \d{4}$/g, '')}
      </td>
      {INVENTORY_COLUMNS.filter(shown).map((c) => (
        <td
          key={c}
          className={c === 'price' ? css({ overflow: 'visible !important' }) : numeric.has(c) ? 'num' : undefined}
          title={c === 'split' ? SPLIT_LABELS[l.split_type] : titled.has(c) ? String(cells[c]) : undefined}
        >
          {c === 'price' ? null : <span className={cellLabel}>{COLUMN_LABELS[c]}:</span>}
          {cells[c]}
        </td>
      ))}
      <td className={css({ overflow: 'visible !important' })}>
        <RowMenu listing={l} label={label} />
      </td>
    </tr>
  );
}
