import { css, cx } from 'styled-system/css';
import { useSearch } from 'wouter';
import { Session } from '../../app/session';
import { useKycGate } from '../../app/shell/shell-actors';
import { Button } from '../../ui/button';

const box = css({
  bg: 'bg',
  borderRadius: 'lg',
  p: { base: '5', desktop: '8' },
  display: 'grid',
  gap: '4',
});
/** Where the seller stands beside what they will need, once the width allows it. */
const columns = css({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 24rem), 1fr))',
  gap: { base: '4', desktop: '8' },
  alignItems: 'start',
});

const REQUIRED = [
  'A signed seller contract',
  'A photo ID (passport or national identity card)',
  'A proof of address from the last three months',
  'Your business details, if you sell as a company',
];

export const AWAITING_SELLER_TEXT =
  "Your seller's identity verification (KYC) is not complete yet. Only the seller can complete it; you can use the portal once it is approved.";

/** /settings/kyc: where a seller stands with identity checks, and what they will need (the shell's h1 names it). */
export default function KycPage() {
  const handled = new URLSearchParams(useSearch()).get('handle') === 'true';
  const kyc = Session.useSelector((s) => s.context.kyc);
  const userType = Session.useSelector((s) => s.context.roles?.user_type);
  const session = Session.useActorRef();
  const gate = useKycGate();
  // the held menu keeps only the minimise item: the way out is here
  const held = gate !== 'open';
  const status = kyc?.kyc_status ?? 0;
  const logout = (
    <div>
      <Button tone="secondary" onClick={() => session.send({ type: 'logout.requested' })}>
        Logout
      </Button>
    </div>
  );
  if (gate === 'awaitingSeller') {
    // a team member: the status is its seller's, and only the seller can act on it
    return (
      <section className={box}>
        <p role="status" className={css({ fontWeight: 'semibold' })}>
          {AWAITING_SELLER_TEXT}
        </p>
        {logout}
      </section>
    );
  }
  return (
    <section className={cx(box, columns)}>
      <div className={css({ display: 'grid', gap: '4' })}>
        {status === 1 ? (
          <p role="status" className={css({ color: 'success', fontWeight: 'semibold' })}>
            Approved: your identity is verified.
          </p>
        ) : status === 2 ? (
          <div role="status" className={css({ display: 'grid', gap: '1' })}>
            <p className={css({ color: 'error', fontWeight: 'semibold' })}>
              Rejected: your documents were not accepted.
            </p>
            {kyc?.rejection_reason ? <p>Reason: {kyc.rejection_reason}</p> : null}
          </div>
        ) : (
          <p role="status" className={css({ fontWeight: 'semibold' })}>
            Not submitted: you have not sent your documents yet.
          </p>
        )}
        {status !== 1 && (userType === 'sellers' || handled) ? (
          <p className={css({ color: 'fg.muted' })}>
            You can use the portal once your identity is verified. An administrator reviews what you send.
          </p>
        ) : null}
        {held ? logout : null}
      </div>
      {status !== 1 ? (
        <div>
          <h3 className={css({ fontWeight: 'semibold', mb: '2' })}>What you will need</h3>
          <ul className={css({ listStyle: 'disc', pl: '6', display: 'grid', gap: '1' })}>
            {REQUIRED.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
          <p className={css({ mt: '3', color: 'fg.muted', fontSize: 'sm' })}>
            Uploading documents opens here soon. Files: PDF, JPG or PNG up to 10 MB each.
          </p>
        </div>
      ) : null}
    </section>
  );
}
