import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import {
  REFERRALS_LOAD_ERROR,
  type ReferralSummary,
  type referralBookingListMachine,
  referralsMachine,
  type referredListMachine,
} from '../../../machines/referrals.machine';
import type { components } from '../../../openapi/schema';
import { useViewActor } from '../../app/view-actor';
import { formatDate } from '../../lib/format-date';
import { formatMoney } from '../../lib/money';
import { CopyButton } from '../../ui/copy-button';
import { TextField } from '../../ui/text-field';
import { SettingsPager } from './settings-pager';
import { Panel, PanelEmpty, PanelFailed, PanelLoading } from './settings-parts';

type Earning = components['schemas']['ReferralEarning'];

const earnedText = (earned: readonly Earning[]) =>
  earned.length === 0
    ? formatMoney({ minor: 0, currency: 'GBP' })
    : earned.map((e) => formatMoney({ minor: e.amount, currency: e.currency })).join(' + ');

const percent = (bps: number) => `${bps / 100}%`;

const row = css({
  border: '1px solid {colors.border}',
  borderRadius: 'md',
  p: '3',
  display: 'flex',
  flexWrap: 'wrap',
  gap: '2',
  justifyContent: 'space-between',
  alignItems: 'baseline',
});
const muted = css({ fontSize: 'sm', color: 'fg.muted' });
const listStyle = css({ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: '2' });

/** /settings/referrals: the code and link to share, the rule, what was earned, the people referred and their bookings. */
export default function ReferralsPage() {
  const page = useViewActor(referralsMachine, 'settings-referrals');
  const people = useSelector(
    page,
    (s) => s?.children.referredList as ActorRefFrom<typeof referredListMachine> | undefined,
  );
  const bookings = useSelector(
    page,
    (s) => s?.children.referralBookingList as ActorRefFrom<typeof referralBookingListMachine> | undefined,
  );
  const summary = useSelector(page, (s) => s?.context.summary ?? null);
  const loading = useSelector(page, (s) => s?.hasTag('loading') ?? true);
  const failed = useSelector(page, (s) => s?.matches('failed') ?? false);
  return (
    <div className={css({ display: 'grid', gap: '4', minWidth: 0 })}>
      <Panel label="Your referral code">
        {failed ? (
          <PanelFailed message={REFERRALS_LOAD_ERROR} onRetry={() => page?.send({ type: 'summary.retried' })} />
        ) : loading || !summary ? (
          <PanelLoading label="Loading your referral code" rows={2} />
        ) : (
          <Summary summary={summary} />
        )}
      </Panel>
      <Panel label="People you referred">
        <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>People you referred</h2>
        <PeopleList list={people} />
      </Panel>
      <Panel label="Their bookings">
        <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>Their bookings</h2>
        <BookingList list={bookings} />
      </Panel>
    </div>
  );
}

function Summary({ summary }: { summary: ReferralSummary }) {
  const link = `${globalThis.location?.origin ?? ''}${summary.signup_path}`;
  const { share_bps, service_fee_bps, months } = summary.program;
  return (
    <div className={css({ display: 'grid', gap: '3' })}>
      <dl className={css({ display: 'grid', gap: '3', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' } })}>
        <div>
          <dt className={muted}>Your referral code</dt>
          <dd className={css({ display: 'flex', alignItems: 'center', gap: '2' })}>
            <strong data-testid="referral-code" className={css({ fontSize: 'xl', letterSpacing: '0.1em' })}>
              {summary.referral_code}
            </strong>
            <CopyButton value={summary.referral_code} label="referral code" />
          </dd>
        </div>
        <div>
          <dt className={muted}>You have earned</dt>
          <dd className={css({ fontSize: 'xl', fontWeight: 'semibold' })}>{earnedText(summary.earned)}</dd>
        </div>
      </dl>
      <div className={css({ display: 'flex', alignItems: 'flex-end', gap: '2', minWidth: 0 })}>
        <div className={css({ flex: '1 1 auto', minWidth: 0 })}>
          <TextField
            label="Your referral link"
            name="referral_link"
            readOnly
            value={link}
            onFocus={(e) => e.currentTarget.select()}
          />
        </div>
        <CopyButton value={link} label="referral link" />
      </div>
      <p className={muted}>
        Share the link: whoever signs up with it is referred by you. You earn {percent(share_bps)} of our service fee (
        {percent(service_fee_bps)} of the tickets' price) on every booking they confirm in their first {months} months.
        A booking whose sale is cancelled earns nothing.
      </p>
    </div>
  );
}

/** What a paged list of this page shows: its rows, and whether it is loading, failed or empty, and its page. */
function usePagedList<
  L extends ActorRefFrom<typeof referredListMachine> | ActorRefFrom<typeof referralBookingListMachine>,
>(list: L | undefined) {
  const snapshot = useSelector(list, (s) => s) as ReturnType<L['getSnapshot']> | undefined;
  return {
    items: (snapshot?.context.items ?? []) as ReturnType<L['getSnapshot']>['context']['items'],
    loading: snapshot?.hasTag('loadingFirst') ?? true,
    failed: snapshot?.matches('failed') ?? false,
    empty: snapshot?.matches('empty') ?? false,
    page: snapshot?.context.page ?? 1,
    lastPage: snapshot?.context.lastPage ?? 1,
  };
}

function PeopleList({ list }: { list: ActorRefFrom<typeof referredListMachine> | undefined }) {
  const { items, loading, failed, empty, page, lastPage } = usePagedList(list);
  if (failed)
    return <PanelFailed message={REFERRALS_LOAD_ERROR} onRetry={() => list?.send({ type: 'list.retried' })} />;
  if (loading && items.length === 0) return <PanelLoading label="Loading the people you referred" rows={3} />;
  if (empty) return <PanelEmpty>Nobody has signed up with your link yet. Share it to start earning.</PanelEmpty>;
  return (
    <>
      <ul aria-label="People you referred" className={listStyle}>
        {items.map((p) => (
          <li key={p.id} className={row}>
            <div className={css({ minWidth: 0 })}>
              <strong>{p.name}</strong>
              <p className={muted}>
                Joined {formatDate(p.joined_at)} ·{' '}
                {new Date(p.earning_until) > new Date()
                  ? `earning until ${formatDate(p.earning_until)}`
                  : `earning ended ${formatDate(p.earning_until)}`}
              </p>
            </div>
            <div className={css({ textAlign: 'right' })}>
              <p>{earnedText(p.earned)}</p>
              <p className={muted}>
                {p.bookings_count} {p.bookings_count === 1 ? 'booking' : 'bookings'}
              </p>
            </div>
          </li>
        ))}
      </ul>
      <SettingsPager
        label="Pages of people you referred"
        page={page}
        lastPage={lastPage}
        busy={loading}
        onPage={(p) => list?.send({ type: 'page.requested', page: p })}
      />
    </>
  );
}

function BookingList({ list }: { list: ActorRefFrom<typeof referralBookingListMachine> | undefined }) {
  const { items, loading, failed, empty, page, lastPage } = usePagedList(list);
  if (failed)
    return <PanelFailed message={REFERRALS_LOAD_ERROR} onRetry={() => list?.send({ type: 'list.retried' })} />;
  if (loading && items.length === 0) return <PanelLoading label="Loading their bookings" rows={3} />;
  if (empty) return <PanelEmpty>No confirmed bookings by the people you referred yet.</PanelEmpty>;
  return (
    <>
      <ul aria-label="Bookings of the people you referred" className={listStyle}>
        {items.map((b) => (
          <li key={b.id} className={row}>
            <div className={css({ minWidth: 0 })}>
              <strong>{b.event_name}</strong>
              <p className={muted}>
                {b.referred_name} · {formatDate(b.confirmed_at)} · service fee{' '}
                {formatMoney({ minor: b.service_fee, currency: b.currency })}
              </p>
            </div>
            <div className={css({ textAlign: 'right' })}>
              <p>{formatMoney({ minor: b.earned, currency: b.currency })}</p>
              <p className={muted}>{b.earning ? 'earned' : 'does not earn'}</p>
            </div>
          </li>
        ))}
      </ul>
      <SettingsPager
        label="Pages of bookings"
        page={page}
        lastPage={lastPage}
        busy={loading}
        onPage={(p) => list?.send({ type: 'page.requested', page: p })}
      />
    </>
  );
}
