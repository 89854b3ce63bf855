import { useSelector } from '@xstate/react';
import { css, cx } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import type { deliveryCockpitMachine } from '../../../machines/sales.machine';
import { byDeadline, deadlineTone } from '../../lib/deadline';
import { Button } from '../../ui/button';
import { Deadline, deadlineEdge } from '../../ui/deadline';
import { FileField } from '../../ui/file-field';
import { Loading, Skeleton } from '../../ui/skeleton';
import { PDF_RULES } from './order-drawer';
import { useDrawer, useSales } from './sales-context';
import { card, heading, muted, Retry } from './sales-parts';

type CockpitRef = ActorRefFrom<typeof deliveryCockpitMachine>;

/** The delivery cockpit: orders awaiting delivery by deadline, overdue in red, due within 24 h in amber. */
export function Cockpit() {
  const sales = useSales();
  const cockpit = useSelector(sales, (s) => s.children.cockpit) as CockpitRef | undefined;
  const items = useSelector(cockpit, (s) => s?.context.items ?? []);
  const loading = useSelector(cockpit, (s) => s?.hasTag('loadingFirst') ?? true);
  const failed = useSelector(cockpit, (s) => s?.matches('failed') ?? false);
  const drawer = useDrawer();
  const now = Date.now();
  return (
    <section aria-labelledby="delivery-cockpit" className={card}>
      <h2 id="delivery-cockpit" className={heading}>
        Delivery cockpit
      </h2>
      {failed ? (
        <Retry onRetry={() => cockpit?.send({ type: 'list.retried' })} />
      ) : loading ? (
        <Loading label="Loading the delivery cockpit">
          {[1, 2].map((i) => (
            <Skeleton key={i} height="40px" />
          ))}
        </Loading>
      ) : items.length === 0 ? (
        <p className={muted}>Nothing to deliver.</p>
      ) : (
        <ol
          aria-label="Orders by delivery deadline"
          className={css({ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: '2' })}
        >
          {byDeadline(items.map((o) => ({ ...o, id: o.booking_id, deadline: o.deliver_by }))).map((o) => {
            const tone = deadlineTone(o.deliver_by, now);
            return (
              <li
                key={o.booking_id}
                data-testid={`cockpit-${o.booking_no}`}
                data-tone={tone}
                className={cx(
                  css({
                    display: 'flex',
                    flexWrap: 'wrap',
                    alignItems: 'center',
                    gap: '3',
                    justifyContent: 'space-between',
                    py: '1',
                  }),
                  deadlineEdge(tone),
                )}
              >
                <span className={css({ display: 'grid', gap: '0.5', minWidth: 0, overflowWrap: 'anywhere' })}>
                  <span className={css({ fontWeight: 'semibold' })}>
                    {o.booking_no} · {o.match_name}
                  </span>
                  <Deadline kind="deliver" at={o.deliver_by} now={now} />
                  <span className={muted}>
                    {o.delivered} of {o.quantity} delivered
                  </span>
                </span>
                {o.delivery_method === 'pdf' ? (
                  <PdfPicker
                    bookingNo={o.booking_no}
                    onPicked={(files) =>
                      drawer?.send({
                        type: 'order.opened',
                        id: o.booking_id,
                        // one file for several tickets is read as a page per ticket, as the drawer offers
                        delivery: {
                          kind: 'pdf',
                          files,
                          mode: files.length === 1 && o.quantity - o.delivered > 1 ? 'split' : 'per_ticket',
                        },
                      })
                    }
                  />
                ) : (
                  <Button
                    aria-label={`Upload tickets for ${o.booking_no}`}
                    onClick={() => drawer?.send({ type: 'order.opened', id: o.booking_id })}
                  >
                    Upload
                  </Button>
                )}
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

/**
 * The cockpit's one-click upload of PDF e-tickets: the button is the kit's file picker, and the files picked go out
 * at once in the order's drawer, which shows their progress and the server's answer. A file the rules refuse (not a
 * PDF, over 5 MB) is named here and nothing is sent. Other delivery methods open the drawer instead.
 */
function PdfPicker({ bookingNo, onPicked }: { bookingNo: string; onPicked: (files: File[]) => void }) {
  return (
    <FileField
      variant="button"
      multiple
      label={`Upload tickets for ${bookingNo}`}
      buttonText="Upload"
      rules={PDF_RULES}
      files={[]}
      onFilesChange={(files) => files.length > 0 && onPicked(files)}
    />
  );
}
