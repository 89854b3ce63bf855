import { useSelector } from '@xstate/react';
import { useId } from 'react';
import { css, cx } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import {
  type AdminEventRequest,
  adminEventRequestsMachine,
  type approveFormMachine,
  EVENT_REASON_LIMITS,
  type eventRequestQueueMachine,
} from '../../../machines/admin-event-requests.machine';
import { useViewActor } from '../../app/view-actor';
import { formatDate } from '../../lib/format-date';
import { Button } from '../../ui/button';
import { FormFooter } from '../../ui/form-footer';
import { Modal } from '../../ui/modal';
import { Loading, Skeleton } from '../../ui/skeleton';
import { inputBox, TextField } from '../../ui/text-field';

type AdminRef = ActorRefFrom<typeof adminEventRequestsMachine>;
type QueueRef = ActorRefFrom<typeof eventRequestQueueMachine>;
type ApproveRef = ActorRefFrom<typeof approveFormMachine>;

const muted = css({ fontSize: 'xs', color: 'fg.muted', overflowWrap: 'anywhere' });
const table = css({
  width: '100%',
  borderCollapse: 'collapse',
  fontSize: 'sm',
  '& th': { textAlign: 'left', fontWeight: 'semibold', color: 'fg.muted', py: '2', px: '2', whiteSpace: 'nowrap' },
  '& td': { py: '2', px: '2', borderTop: '1px solid {colors.border}', verticalAlign: 'top' },
});

/** /admin/event-requests: sellers' requests for matches not in the catalogue, oldest first. */
export default function AdminEventRequestsPage() {
  const admin = useViewActor(adminEventRequestsMachine, 'adminEventRequests');
  if (!admin) return null;
  return (
    <>
      <Queue admin={admin} />
      <ApproveDialog admin={admin} />
      <RejectDialog admin={admin} />
    </>
  );
}

function Queue({ admin }: { admin: AdminRef }) {
  const queue = useSelector(admin, (s) => s.children.queue) as QueueRef | undefined;
  const items = useSelector(queue, (s) => s?.context.items ?? []);
  const loading = useSelector(queue, (s) => s?.hasTag('loadingFirst') ?? true);
  const failed = useSelector(queue, (s) => s?.matches('failed') ?? false);
  const empty = useSelector(queue, (s) => s?.matches('empty') ?? false);
  const page = useSelector(queue, (s) => s?.context.page ?? 1);
  const lastPage = useSelector(queue, (s) => s?.context.lastPage ?? 1);
  // one decision at a time
  const idle = useSelector(admin, (s) => s.matches('idle'));
  return (
    <section
      aria-labelledby="admin-event-requests"
      aria-busy={loading}
      className={css({
        bg: 'bg',
        borderRadius: 'lg',
        p: { base: '4', desktop: '5' },
        display: 'grid',
        gridTemplateColumns: 'minmax(0, 1fr)',
        gap: '3',
      })}
    >
      <h2 id="admin-event-requests" className={css({ fontSize: 'md', fontWeight: 'bold' })}>
        Event requests pending review
      </h2>
      {loading ? (
        <Loading label="Loading the event requests">
          {[1, 2, 3].map((i) => (
            <Skeleton key={i} height="40px" />
          ))}
        </Loading>
      ) : failed ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => queue?.send({ type: 'list.retried' })}>
            Retry
          </Button>
        </div>
      ) : empty ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>No event request is waiting.</p>
      ) : (
        <div className={css({ overflowX: 'auto' })}>
          <table className={table}>
            <thead>
              <tr>
                <th>Event</th>
                <th>Date</th>
                <th>Venue</th>
                <th>Seller</th>
                <th>Requested</th>
                <th>
                  <span className={css({ srOnly: true })}>Decision</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((r: AdminEventRequest) => (
                <tr key={r.request_id} aria-label={r.match_name}>
                  <td>
                    <div className={css({ fontWeight: 'semibold', overflowWrap: 'anywhere' })}>{r.match_name}</div>
                    <div className={muted}>
                      {[r.tournament, r.home_team && r.away_team ? `${r.home_team} v ${r.away_team}` : null]
                        .filter(Boolean)
                        .join(' · ')}
                    </div>
                    {r.notes ? <div className={muted}>{r.notes}</div> : null}
                  </td>
                  <td className={css({ whiteSpace: 'nowrap' })}>
                    {formatDate(r.match_date)}
                    <div className={muted}>{r.match_time ?? 'no kick-off time'}</div>
                  </td>
                  <td>
                    {r.stadium_name}
                    {r.city_name ? <div className={muted}>{r.city_name}</div> : null}
                  </td>
                  <td>{r.seller_name}</td>
                  <td>{formatDate(r.created_at)}</td>
                  <td>
                    <div className={css({ display: 'flex', gap: '2' })}>
                      <Button
                        disabled={!idle}
                        aria-label={`Approve ${r.match_name}`}
                        onClick={() => admin.send({ type: 'approve.started', request: r })}
                      >
                        Approve
                      </Button>
                      <Button
                        tone="secondary"
                        disabled={!idle}
                        aria-label={`Reject ${r.match_name}`}
                        onClick={() => admin.send({ type: 'reject.started', request: r })}
                      >
                        Reject
                      </Button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {lastPage > 1 ? (
            <nav
              aria-label="Event request pages"
              className={css({ display: 'flex', gap: '2', alignItems: 'center', justifyContent: 'flex-end', pt: '2' })}
            >
              <Button
                tone="secondary"
                disabled={page <= 1}
                onClick={() => queue?.send({ type: 'page.requested', page: page - 1 })}
              >
                Previous
              </Button>
              <span className={css({ fontSize: 'sm' })}>
                Page {page} of {lastPage}
              </span>
              <Button
                tone="secondary"
                disabled={page >= lastPage}
                onClick={() => queue?.send({ type: 'page.requested', page: page + 1 })}
              >
                Next
              </Button>
            </nav>
          ) : null}
        </div>
      )}
    </section>
  );
}

/** Approve: the kick-off time confirmed (or given), then the match joins the catalogue. */
function ApproveDialog({ admin }: { admin: AdminRef }) {
  const open = useSelector(admin, (s) => s.matches('approving'));
  const request = useSelector(admin, (s) => s.context.request);
  const form = useSelector(admin, (s) => s.children.approveForm) as ApproveRef | undefined;
  const cancel = () => admin.send({ type: 'approve.cancelled' });
  return (
    <Modal open={open} onClose={cancel} title={`Approve ${request?.match_name ?? ''}`}>
      {form && request ? <ApproveForm form={form} request={request} onCancel={cancel} /> : null}
    </Modal>
  );
}

function ApproveForm({
  form,
  request,
  onCancel,
}: {
  form: ApproveRef;
  request: AdminEventRequest;
  onCancel: () => void;
}) {
  const values = useSelector(form, (s) => s.context.values);
  const errors = useSelector(form, (s) => s.context.errors);
  const formError = useSelector(form, (s) => s.context.formError);
  const submitting = useSelector(form, (s) => s.hasTag('submitting'));
  const showErrors = useSelector(form, (s) => !s.matches({ editing: 'pristine' }));
  return (
    <form
      aria-label="Approve the event request"
      noValidate
      className={css({ display: 'grid', gap: '3' })}
      onSubmit={(e) => {
        e.preventDefault();
        form.send({ type: 'form.submitted' });
      }}
    >
      <p className={css({ fontSize: 'sm' })}>
        {request.match_name}, {formatDate(request.match_date)} at {request.stadium_name}
        {request.city_name ? `, ${request.city_name}` : ''} joins the catalogue; {request.seller_name} is told and can
        list tickets for it.
      </p>
      {formError ? (
        <p role="alert" className={css({ color: 'error', fontSize: 'sm' })}>
          {formError}
        </p>
      ) : null}
      <TextField
        label="Kick-off time"
        type="time"
        required
        value={values.match_time ?? ''}
        // an emptied time is no time (the contract's pattern takes HH:MM only)
        onChange={(e) =>
          form.send({ type: 'field.changed', field: 'match_time', value: e.currentTarget.value || undefined })
        }
        error={errors.match_time}
        showErrors={showErrors}
      />
      <FormFooter onCancel={onCancel} valid={!submitting} submitting={submitting} submitLabel="Approve" />
    </form>
  );
}

/** Reject with a reason: the reason is required, and the seller reads it. */
function RejectDialog({ admin }: { admin: AdminRef }) {
  const open = useSelector(admin, (s) => s.matches('writingReason') || s.matches('rejecting'));
  const request = useSelector(admin, (s) => s.context.request);
  const reason = useSelector(admin, (s) => s.context.reason);
  const rejecting = useSelector(admin, (s) => s.matches('rejecting'));
  const canConfirm = useSelector(admin, (s) => s.can({ type: 'reject.confirmed' }));
  const fieldId = useId();
  return (
    <Modal
      open={open}
      onClose={() => admin.send({ type: 'reject.cancelled' })}
      title={`Reject ${request?.match_name ?? ''}`}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          admin.send({ type: 'reject.confirmed' });
        }}
        className={css({ display: 'grid', gap: '3' })}
      >
        <label htmlFor={fieldId} className={css({ fontSize: 'sm', fontWeight: 'medium' })}>
          Reason (the seller reads it)
        </label>
        <textarea
          id={fieldId}
          required
          value={reason}
          maxLength={EVENT_REASON_LIMITS.maxLength}
          disabled={rejecting}
          onChange={(e) => admin.send({ type: 'reason.changed', reason: e.target.value })}
          className={cx(inputBox, css({ minHeight: '6rem', py: '2', height: 'auto' }))}
        />
        <FormFooter
          onCancel={() => admin.send({ type: 'reject.cancelled' })}
          valid={canConfirm}
          submitting={rejecting}
          submitLabel="Reject"
        />
      </form>
    </Modal>
  );
}
