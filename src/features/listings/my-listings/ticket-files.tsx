import { useMachine } from '@xstate/react';
import { useId } from 'react';
import { css } from 'styled-system/css';
import type { ListingFile } from '../../../../machines/listings-api';
import { TICKET_FILE_TYPES, ticketFilesMachine } from '../../../../machines/ticket-files.machine';
import { useNotify } from '../../../app/notify-bridge';
import { formatFileSize } from '../../../lib/file-rules';
import { FieldLabel, fieldStack } from '../../../ui/field';
import { muted, sectionTitle, stack } from '../listing-styles';

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
      <div className={fieldStack}>
        <FieldLabel htmlFor={inputId}>Upload ticket files (pdf, jpg, jpeg or png, 5 MB each, up to 10)</FieldLabel>
        <input
          id={inputId}
          type="file"
          multiple
          accept={TICKET_FILE_TYPES.map((t) => `.${t}`).join(',')}
          disabled={busy}
          aria-describedby={message ? `${inputId}-error` : undefined}
          onChange={(e) => {
            const chosen = [...(e.currentTarget.files ?? [])];
            e.currentTarget.value = '';
            send({ type: 'files.chosen', files: chosen });
          }}
        />
      </div>
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
