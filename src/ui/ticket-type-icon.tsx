/** The ticket types by `ticket_type_id` (1 to 6), as the contract names them. */
export const TICKET_TYPES: Readonly<Record<number, string>> = {
  1: 'E-ticket',
  2: 'Mobile ticket',
  3: 'Paper ticket',
  4: 'Members card',
  5: 'PDF ticket',
  6: 'Collection at the venue',
};

const PATHS: Readonly<Record<number, string>> = {
  // e-ticket: an envelope
  1: 'M3 6h18v12H3z M3 6l9 7 9-7',
  // mobile: a phone
  2: 'M8 2h8a1 1 0 0 1 1 1v18a1 1 0 0 1-1 1H8a1 1 0 0 1-1-1V3a1 1 0 0 1 1-1z M11 18h2',
  // paper: a ticket stub
  3: 'M3 7h18v3a2 2 0 0 0 0 4v3H3v-3a2 2 0 0 0 0-4z M14 7v10',
  // members card: a card
  4: 'M2 6h20v12H2z M2 10h20 M6 15h4',
  // pdf: a document
  5: 'M6 2h9l5 5v15H6z M15 2v5h5 M9 13h6 M9 17h6',
  // collection at the venue: a pin
  6: 'M12 22s7-6.5 7-12a7 7 0 0 0-14 0c0 5.5 7 12 7 12z M12 12.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z',
};

/** The icon of a ticket type (by `ticket_type_id`), named for screen readers by the type. */
export function TicketTypeIcon({ typeId, name }: { typeId: number; name?: string }) {
  const label = name || TICKET_TYPES[typeId] || 'Ticket';
  return (
    <svg
      role="img"
      aria-label={label}
      data-ticket-type={typeId}
      width="20"
      height="20"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <title>{label}</title>
      <path d={PATHS[typeId] ?? PATHS[1]} />
    </svg>
  );
}
