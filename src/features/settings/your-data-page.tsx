import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import { accountDataMachine } from '../../../machines/account-data.machine';
import { useViewActor } from '../../app/view-actor';
import { Button } from '../../ui/button';
import { Modal } from '../../ui/modal';
import { Loading, Skeleton } from '../../ui/skeleton';
import { TextField } from '../../ui/text-field';

type DataRef = ActorRefFrom<typeof accountDataMachine>;

const card = css({ bg: 'bg', borderRadius: 'lg', p: { base: '4', desktop: '5' }, display: 'grid', gap: '3' });
const muted = css({ fontSize: 'sm', color: 'fg.muted' });

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/** Saves a file the machine handed over, as a download the browser names. */
function save(file: Blob, name: string) {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** /settings/your-data: the account's data as a zip, and the request to erase the account. */
export default function YourDataPage() {
  const data = useViewActor(accountDataMachine, 'accountData');
  useEffect(() => {
    if (!data) return;
    const sub = data.on('file.ready', ({ file, name }) => save(file, name));
    return () => sub.unsubscribe();
  }, [data]);
  if (!data) return null;
  return (
    <div className={css({ display: 'grid', gap: '4' })}>
      <ExportSection data={data} />
      <ErasureSection data={data} />
      <ErasureDialog data={data} />
    </div>
  );
}

function ExportSection({ data }: { data: DataRef }) {
  const downloading = useSelector(data, (s) => s.hasTag('downloading'));
  const received = useSelector(data, (s) => s.context.received);
  const rows = useSelector(data, (s) => s.context.rows);
  const saved = useSelector(data, (s) => (s.matches({ export: 'saved' }) ? s.context.saved : null));
  const problem = useSelector(data, (s) => (s.matches({ export: 'failed' }) ? s.context.exportProblem : null));
  return (
    <section aria-labelledby="export-title" className={card}>
      <h2 id="export-title" className={css({ fontSize: 'md', fontWeight: 'bold' })}>
        Download your data
      </h2>
      <p className={muted}>
        One zip with your profile, addresses, listings, orders, bookings, wallet ledger lines, payouts and the list of
        your KYC documents, each as JSON and as CSV.
      </p>
      <div>
        <Button tone="primary" busy={downloading} onClick={() => data.send({ type: 'export.requested' })}>
          Download my data
        </Button>
      </div>
      <div aria-live="polite" className={css({ fontSize: 'sm' })}>
        {downloading ? (
          <div className={css({ display: 'grid', gap: '1' })}>
            <progress aria-label="Download progress" className={css({ width: '100%' })} />
            <span>
              Downloading… {megabytes(received)} received{rows > 0 ? ` (${rows.toLocaleString('en-GB')} rows)` : ''}
            </span>
          </div>
        ) : saved ? (
          <span>
            Saved {saved.name} ({megabytes(saved.size)}).
          </span>
        ) : null}
      </div>
      {problem ? (
        <p role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
          {problem}
        </p>
      ) : null}
    </section>
  );
}

function ErasureSection({ data }: { data: DataRef }) {
  const loading = useSelector(data, (s) => s.hasTag('loadingErasure'));
  const failed = useSelector(data, (s) => s.matches({ erasure: 'loadFailed' }));
  const erasure = useSelector(data, (s) => s.context.erasure);
  const mayAsk = useSelector(data, (s) => s.can({ type: 'erasure.started' }));
  return (
    <section aria-labelledby="erasure-title" aria-busy={loading} className={card}>
      <h2 id="erasure-title" className={css({ fontSize: 'md', fontWeight: 'bold' })}>
        Erase my account
      </h2>
      {loading ? (
        <Loading label="Loading">
          <Skeleton height="40px" />
        </Loading>
      ) : failed ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => data.send({ type: 'erasure.retried' })}>
            Retry
          </Button>
        </div>
      ) : erasure ? (
        <>
          <p className={muted}>
            Your name, e-mail, phone, addresses, cards, bank details, documents and files are deleted and you can no
            longer log in. Your orders, payouts and wallet history stay, without your name, as the accounts require.
          </p>
          {erasure.status === 'requested' ? (
            <p role="status" className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
              Your request is waiting for the back office.
            </p>
          ) : null}
          {erasure.status === 'rejected' && erasure.rejection_reason ? (
            <p className={css({ fontSize: 'sm' })}>Your last request was refused: {erasure.rejection_reason}</p>
          ) : null}
          {erasure.blockers.length > 0 ? (
            <div>
              <p className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
                Your account cannot be erased while money is held or owed:
              </p>
              <ul className={css({ fontSize: 'sm', listStyle: 'disc', pl: '5' })}>
                {erasure.blockers.map((b) => (
                  <li key={b}>{b}</li>
                ))}
              </ul>
            </div>
          ) : null}
          {erasure.status !== 'requested' ? (
            <div>
              <Button tone="secondary" disabled={!mayAsk} onClick={() => data.send({ type: 'erasure.started' })}>
                Erase my account
              </Button>
            </div>
          ) : null}
        </>
      ) : null}
    </section>
  );
}

function ErasureDialog({ data }: { data: DataRef }) {
  const open = useSelector(data, (s) => s.matches({ erasure: 'confirming' }) || s.matches({ erasure: 'sending' }));
  const busy = useSelector(data, (s) => s.hasTag('sendingErasure'));
  const password = useSelector(data, (s) => s.context.password);
  const problem = useSelector(data, (s) => s.context.erasureProblem);
  const can = useSelector(data, (s) => s.can({ type: 'erasure.confirmed' }));
  if (!open) return null;
  return (
    <Modal open title="Erase your account?" onClose={() => data.send({ type: 'erasure.cancelled' })}>
      <form
        className={css({ display: 'grid', gap: '3' })}
        onSubmit={(e) => {
          e.preventDefault();
          data.send({ type: 'erasure.confirmed' });
        }}
      >
        <p className={css({ fontSize: 'sm' })}>
          The back office will erase your account after checking nothing is owed. Then your name, e-mail, phone,
          addresses, documents and files are gone for good, every session ends, and you cannot log in again. Your
          orders, payouts and wallet history stay for the accounts, without your name. Download your data first if you
          want a copy.
        </p>
        <TextField
          label="Your password"
          type="password"
          autoComplete="current-password"
          value={password}
          required
          error={problem ?? undefined}
          onChange={(e) => data.send({ type: 'password.changed', password: e.currentTarget.value })}
        />
        <div className={css({ display: 'flex', gap: '3', justifyContent: 'flex-end', flexWrap: 'wrap' })}>
          <Button tone="secondary" onClick={() => data.send({ type: 'erasure.cancelled' })}>
            Cancel
          </Button>
          <Button tone="primary" type="submit" busy={busy} disabled={!can} whyDisabled="Enter your password first.">
            Ask to erase my account
          </Button>
        </div>
      </form>
    </Modal>
  );
}
