import { css, cx } from 'styled-system/css';
import type { WalletDeposit } from '../../../machines/wallet.machine';
import { ToneBadge } from '../../ui/tone-badge';

const MINUTE = 60_000;

/** What is left of the 24-hour promise at `now`: '21 h 5 min left', or that it has passed. */
export function timeLeft(expectedBy: string, now: number): string {
  const left = new Date(expectedBy).getTime() - now;
  if (!Number.isFinite(left)) return '';
  if (left <= 0) return 'Past the 24-hour promise: please reach out to support';
  // whole minutes, rounded up: 20 h 59 min 30 s is 21 h 0 min, never '20 h 60 min'
  // never more than the promise itself: a page's clock a moment behind the server's read '24 h 1 min left of 24 h'
  const total = Math.min(Math.ceil(left / MINUTE), 24 * 60);
  const hours = Math.floor(total / 60);
  const minutes = total % 60;
  return hours > 0 ? `${hours} h ${minutes} min left of 24 h` : `${minutes} min left of 24 h`;
}

type Step = 'Submitted' | 'Under review' | 'Approved' | 'Rejected';

/** The steps of a request: submitted, under review (while pending admin approval), then approved or rejected. */
export function trackingSteps(
  deposit: Pick<WalletDeposit, 'status'>,
): Array<{ step: Step; state: 'done' | 'current' | 'todo' }> {
  if (deposit.status === 'pending') {
    return [
      { step: 'Submitted', state: 'done' },
      { step: 'Under review', state: 'current' },
      { step: 'Approved', state: 'todo' },
    ];
  }
  return [
    { step: 'Submitted', state: 'done' },
    { step: 'Under review', state: 'done' },
    { step: deposit.status === 'approved' ? 'Approved' : 'Rejected', state: 'current' },
  ];
}

/** A request's status as a badge: 'pending admin approval' (the server's words), approved, rejected. */
export function DepositStatusBadge({ deposit }: { deposit: Pick<WalletDeposit, 'status' | 'status_label'> }) {
  const tone = deposit.status === 'approved' ? 'success' : deposit.status === 'rejected' ? 'danger' : 'neutral';
  return <ToneBadge tone={tone}>{deposit.status_label}</ToneBadge>;
}

/** The live tracking of one request: its steps, the time left of the 24-hour promise, the reason when rejected. */
export function DepositTracking({ deposit, now }: { deposit: WalletDeposit; now: number }) {
  const steps = trackingSteps(deposit);
  return (
    <div className={css({ display: 'grid', gap: '1' })}>
      <ol
        aria-label={`Tracking of deposit #${deposit.deposit_id}`}
        className={css({ display: 'flex', flexWrap: 'wrap', gap: '1', listStyle: 'none', p: 0, m: 0, fontSize: 'xs' })}
      >
        {steps.map(({ step, state }, i) => (
          <li
            key={step}
            aria-current={state === 'current' ? 'step' : undefined}
            className={cx(
              css({ color: 'fg.muted' }),
              state === 'done' && css({ color: 'fg' }),
              state === 'current' &&
                css({
                  fontWeight: 'bold',
                  color: step === 'Rejected' ? 'error' : step === 'Approved' ? 'success' : 'accent',
                }),
            )}
          >
            {step}
            {i < steps.length - 1 ? <span aria-hidden="true"> → </span> : null}
          </li>
        ))}
      </ol>
      {deposit.status === 'pending' ? (
        <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>{timeLeft(deposit.expected_by, now)}</span>
      ) : null}
      {deposit.status === 'rejected' && deposit.rejection_reason ? (
        <span className={css({ fontSize: 'xs', color: 'error' })}>Reason: {deposit.rejection_reason}</span>
      ) : null}
    </div>
  );
}
