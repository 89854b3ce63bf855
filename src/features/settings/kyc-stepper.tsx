import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import type { kycMachine } from '../../../machines/kyc.machine';
import { KYC_STEPS, kycStepOf } from '../../../machines/kyc-steps';

/** Identity verification as steps (documents, contract, submit, review, approved) with where the seller stands. */
export function KycStepper({ kyc }: { kyc: ActorRefFrom<typeof kycMachine> }) {
  const step = useSelector(kyc, kycStepOf);
  if (step === null) return null;
  const at = KYC_STEPS.indexOf(step);
  return (
    <nav aria-label="Verification steps">
      <ol className={list}>
        {KYC_STEPS.map((name, i) => {
          const done = i < at || (step === 'Approved' && i === at);
          const current = i === at;
          return (
            <li
              key={name}
              aria-current={current ? 'step' : undefined}
              className={item}
              data-state={current ? 'current' : done ? 'done' : 'todo'}
            >
              <span aria-hidden="true" className={dot}>
                {done ? '✓' : i + 1}
              </span>
              <span>
                {name}
                <span className={css({ srOnly: true })}>{current ? ' (current step)' : done ? ' (done)' : ''}</span>
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

const list = css({
  display: 'flex',
  flexWrap: 'wrap',
  gap: { base: '2', desktop: '4' },
  listStyle: 'none',
  p: 0,
  m: 0,
  fontSize: 'sm',
});
const item = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1.5',
  color: 'fg.muted',
  '&[data-state=current]': { color: 'fg', fontWeight: 'bold' },
  '&[data-state=done]': { color: 'success' },
});
const dot = css({
  display: 'inline-grid',
  placeItems: 'center',
  width: '6',
  height: '6',
  borderRadius: 'pill',
  border: '1px solid currentColor',
  fontSize: 'xs',
});
