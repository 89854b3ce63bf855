import { TextField } from '../../ui/text-field';

/** The words buyers and sellers read for a listing's in-hand date. */
export const IN_HAND_LABEL = 'Tickets in hand from';

/**
 * A listing's in-hand date (optional): the day the seller has the tickets from, at the latest the match's day.
 * The buyer sees it; a sale's delivery is not due before the end of that day. Empty means in hand now.
 */
export function InHandDateField({
  value,
  matchDate,
  onChange,
  error,
}: {
  value: string | null | undefined;
  matchDate?: string;
  onChange: (day: string | null) => void;
  error?: string | null;
}) {
  return (
    <TextField
      type="date"
      label={`${IN_HAND_LABEL} (optional)`}
      max={matchDate}
      value={value ?? ''}
      onChange={(e) => onChange(e.currentTarget.value || null)}
      error={error ?? null}
    />
  );
}
