import { Notes } from './notes';

/** Notes of an event request (500 characters). */
export function RequestNotes(props: { value: string; onChange: (v: string) => void; error: string | null }) {
  return <Notes {...props} label="Notes for the back office (optional)" maxLength={500} />;
}
