import { css } from 'styled-system/css';

/** 'Tue 1 Dec' of a 'YYYY-MM-DD' day (the day as written, whatever the browser's zone). */
export const dayOf = (date: string) =>
  new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' })
    .format(new Date(`${date}T12:00:00Z`))
    .replace(',', '');

/** When the next payout can be requested and when it arrives, as the server's payout rules say. */
export function NextPayout({ next }: { next: { can_request: boolean; message: string } }) {
  return (
    <p
      className={css({
        fontSize: 'sm',
        borderLeft: '3px solid',
        borderColor: next.can_request ? 'success' : 'border',
        pl: '3',
        overflowWrap: 'anywhere',
      })}
    >
      <strong>Next payout: </strong>
      {next.message}
    </p>
  );
}
