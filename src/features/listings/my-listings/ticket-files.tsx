import { useMachine } from '@xstate/react';
import { useId } from 'react';
import { css } from 'styled-system/css';
import type { ListingFile } from '../../../../machines/listings-api';
import { TICKET_FILE_MAX_MB, TICKET_FILE_TYPES, ticketFilesMachine } from '../../../../machines/ticket-files.machine';
import { useNotify } from '../../../app/notify-bridge';
import { formatFileSize } from '../../../lib/file-rules';
import { FileField } from '../../../ui/file-field';
import { muted, sectionTitle, stack } from '../listing-styles';

const TICKET_FILE_RULES = { types: TICKET_FILE_TYPES, maxMb: TICKET_FILE_MAX_MB };

/** The listing's ticket files, and more uploaded with their progress (pdf, jpg, jpeg, png; 5 MB each). */
export function TicketFiles({ ticketId, files: initial }: { ticketId: number; files: ListingFile[] }) {
  const [state, send, actor] = useMachine(ticketFilesMachine, { input: { ticketId, files: initial } });
  useNotify(actor);
  const inputId = useId();
  const { files, progress, message } = state.context;
  const busy = state.hasTag('busy');
  return (
    <section aria-labelledby={`${inputId}-title`} className={stack}>
      <h3 id={`${inputId}-title`} className={sectionTitle}>
        Ticket files
      </h3>
      {files.length === 0 ? (
        <p className={muted}>No files uploaded.</p>
      ) : (
        <ul aria-label="Ticket files" className={css({ listStyle: 'none', p: 0 })}>
          {files.map((f) => (
            <li key={f.file_id}>
              {f.name} <span className={muted}>({formatFileSize(f.size)})</span>
            </li>
          ))}
        </ul>
      )}
      <FileField
        multiple
        label="Upload ticket files (pdf, jpg, jpeg or png, 5 MB each, up to 10)"
        rules={TICKET_FILE_RULES}
        files={[]}
        disabled={busy}
        onFilesChange={(chosen) => chosen.length > 0 && send({ type: 'files.chosen', files: chosen })}
      />
      {busy ? (
        <progress aria-label="Uploading ticket files" max={100} value={progress ?? 0}>
          {progress ?? 0}%
        </progress>
      ) : null}
      {message ? (
        <p id={`${inputId}-error`} role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
          {message}
        </p>
      ) : null}
    </section>
  );
}
