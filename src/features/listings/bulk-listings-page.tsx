import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { css } from 'styled-system/css';
import { Link } from 'wouter';
import { type BulkRowError, bulkUploadMachine } from '../../../machines/bulk-upload.machine';
import { useViewActor } from '../../app/view-actor';
import { type CsvColumn, toCsv } from '../../lib/csv';
import type { FileRules } from '../../lib/file-rules';
import { routes } from '../../routes';
import { Button } from '../../ui/button';
import { FileField } from '../../ui/file-field';
import { UploadProgress } from '../../ui/upload-progress';
import { BulkPreviewSection } from './bulk-preview';
import { card, muted, sectionTitle, stack } from './listing-styles';
import { saveBlob } from './save-blob';

/** The spreadsheet the server reads: the template's .xlsx, or the same columns as CSV; 5 MB (spec section 9). */
export const BULK_FILE_RULES: FileRules = { types: ['xlsx', 'csv'], maxMb: 5 };

const REPORT_COLUMNS: CsvColumn<BulkRowError>[] = [
  { heading: 'Row', cell: (r) => r.row },
  { heading: 'Column', cell: (r) => r.column },
  { heading: 'Value', cell: (r) => r.value },
  { heading: 'Message', cell: (r) => r.message },
];

export type BulkRef = NonNullable<ReturnType<typeof useViewActor<typeof bulkUploadMachine>>>;

/**
 * bulk-listings, Bulk Inventory: the template, the file checked with its progress, the preview of every row
 * (create, skip, refuse and why) and its Confirm, then the count; or the server's report of a file refused.
 */
export default function BulkListingsPage() {
  const bulk = useViewActor(bulkUploadMachine, 'bulk-upload');
  useEffect(() => {
    if (!bulk) return;
    const sub = bulk.on('template.ready', ({ file, name }) => saveBlob(file, name));
    return () => sub.unsubscribe();
  }, [bulk]);
  if (!bulk) return null;
  return (
    <div className={stack}>
      <Template bulk={bulk} />
      <Upload bulk={bulk} />
      <BulkPreviewSection bulk={bulk} />
      <Outcome bulk={bulk} />
    </div>
  );
}

function Template({ bulk }: { bulk: BulkRef }) {
  const downloading = useSelector(bulk, (s) => s.hasTag('downloadingTemplate'));
  return (
    <section aria-labelledby="bulk-template" className={card}>
      <h2 id="bulk-template" className={sectionTitle}>
        1. Download the template
      </h2>
      <p className={muted}>
        Its columns, drop-down lists and examples come from the catalogue: matches, categories, ticket types and split
        options. Fill one row per listing.
      </p>
      <div>
        <Button
          tone="secondary"
          busy={downloading}
          disabled={downloading}
          onClick={() => bulk.send({ type: 'template.requested' })}
        >
          Download template
        </Button>
      </div>
    </section>
  );
}

function Upload({ bulk }: { bulk: BulkRef }) {
  const file = useSelector(bulk, (s) => s.context.file);
  const progress = useSelector(bulk, (s) => s.context.progress);
  const busy = useSelector(bulk, (s) => s.hasTag('busy'));
  const processing = useSelector(
    bulk,
    (s) => s.matches({ upload: { checking: 'processing' } }) || s.matches({ upload: { importing: 'processing' } }),
  );
  const importing = useSelector(bulk, (s) => s.matches({ upload: 'importing' }));
  const canUpload = useSelector(bulk, (s) => s.can({ type: 'upload.submitted' }));
  return (
    <section aria-labelledby="bulk-upload" className={card}>
      <h2 id="bulk-upload" className={sectionTitle}>
        2. Check the filled file
      </h2>
      <p className={muted}>
        You see what the upload will create, skip or refuse, row by row, before anything is listed.
      </p>
      <FileField
        label="Listings file"
        rules={BULK_FILE_RULES}
        file={file}
        disabled={busy}
        onFileChange={(chosen) => bulk.send(chosen ? { type: 'file.chosen', file: chosen } : { type: 'file.cleared' })}
      />
      {busy ? (
        <div aria-live="polite" className={stack}>
          {processing ? (
            <p role="status" className={muted}>
              {importing ? 'Creating the listings…' : 'Checking every row…'}
            </p>
          ) : (
            <UploadProgress progress={progress ?? 0} label={`Uploading ${file?.name ?? 'the file'}`} />
          )}
        </div>
      ) : null}
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
        <Button
          busy={busy}
          disabled={!canUpload}
          whyDisabled={file ? null : 'Choose the filled file first.'}
          onClick={() => bulk.send({ type: 'upload.submitted' })}
        >
          Check file
        </Button>
        {busy ? (
          <Button tone="secondary" onClick={() => bulk.send({ type: 'upload.cancelled' })}>
            Cancel
          </Button>
        ) : null}
      </div>
    </section>
  );
}

const rows = (n: number, what = 'row') => `${n.toLocaleString('en-GB')} ${what}${n === 1 ? '' : 's'}`;

function Outcome({ bulk }: { bulk: BulkRef }) {
  const state = useSelector(bulk, (s) => {
    const upload = (s.value as { upload: string | object }).upload;
    return typeof upload === 'string' ? upload : 'busy';
  });
  const report = useSelector(bulk, (s) => s.context.report);
  const created = useSelector(bulk, (s) => s.context.created);
  const skipped = useSelector(bulk, (s) => s.context.skipped);
  const leftOut = useSelector(bulk, (s) => s.context.leftOut);
  const message = useSelector(bulk, (s) => s.context.message);
  if (state === 'imported' && created !== null)
    return (
      <section aria-labelledby="bulk-result" className={card}>
        <h2 id="bulk-result" className={sectionTitle}>
          Done
        </h2>
        <p role="status">
          {created === 1 ? '1 listing created.' : `${created.toLocaleString('en-GB')} listings created.`}
          {skipped > 0 ? ` ${rows(skipped)} skipped.` : ''}
          {leftOut > 0 ? ` ${rows(leftOut, 'refused row')} left out.` : ''}{' '}
          <Link href={routes.myListings.pattern}>See them in Inventory</Link>
        </p>
      </section>
    );
  if (state === 'failed' && message)
    return (
      <p role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
        {message}
      </p>
    );
  if (state !== 'rejected') return null;
  return (
    <section aria-labelledby="bulk-report" className={card}>
      <div className={css({ display: 'flex', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap' })}>
        <h2 id="bulk-report" className={sectionTitle}>
          Problems in the file
        </h2>
        <Button
          tone="secondary"
          onClick={() =>
            saveBlob(new Blob([toCsv(report, REPORT_COLUMNS)], { type: 'text/csv;charset=utf-8' }), 'bulk-report.csv')
          }
        >
          Download report
        </Button>
      </div>
      <p role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
        {message}
      </p>
      <div className={css({ overflowX: 'auto', maxHeight: '60vh', overflowY: 'auto' })}>
        <table aria-label="Problems by row" className={reportTable}>
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Column</th>
              <th scope="col">Value</th>
              <th scope="col">Message</th>
            </tr>
          </thead>
          <tbody>
            {report.map((r) => (
              // a row may have several problems, one per column
              <tr key={`${r.row}-${r.column}-${r.message}`}>
                <td>{r.row}</td>
                <td>{r.column}</td>
                <td className={css({ overflowWrap: 'anywhere' })}>{r.value ?? ''}</td>
                <td>{r.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

const reportTable = css({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: 'sm',
  '& th': { textAlign: 'left', fontWeight: 'semibold', color: 'fg.muted', py: '2', px: '2', whiteSpace: 'nowrap' },
  '& td': { py: '2', px: '2', borderTop: '1px solid {colors.border}', verticalAlign: 'top' },
});
