import { useSelector } from '@xstate/react';
import { useEffect, useId } from 'react';
import { css, cx } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import { type KycDocument, type KycDocumentKind, kycMachine, type UploadKind } from '../../../machines/kyc.machine';
import { Session } from '../../app/session';
import { useKycGate } from '../../app/shell/shell-actors';
import { useViewActor } from '../../app/view-actor';
import { DEPOSIT_PROOF_RULES, formatFileSize } from '../../lib/file-rules';
import { formatDate } from '../../lib/format-date';
import { openProof } from '../../lib/proof-file';
import { Button } from '../../ui/button';
import { FileField } from '../../ui/file-field';
import { inputBox } from '../../ui/text-field';
import { KycStepper } from './kyc-stepper';

type KycRef = ActorRefFrom<typeof kycMachine>;

const box = css({
  bg: 'bg',
  borderRadius: 'lg',
  p: { base: '5', desktop: '8' },
  display: 'grid',
  gap: '4',
});
const columns = css({
  display: 'grid',
  gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 24rem), 1fr))',
  gap: { base: '4', desktop: '8' },
  alignItems: 'start',
});
const card = css({
  border: '1px solid {colors.border}',
  borderRadius: 'md',
  p: '4',
  display: 'grid',
  gap: '2',
  minWidth: 0,
});

export const AWAITING_SELLER_TEXT =
  "Your seller's identity verification (KYC) is not complete yet. Only the seller can complete it; you can use the portal once it is approved.";

const LABELS: Record<KycDocumentKind, string> = {
  photo_id: 'Photo ID (passport or national identity card)',
  address_proof: 'Proof of address (from the last three months)',
  business: 'Business registration (companies)',
  seller_contract: 'Signed seller contract',
};

const dateTime = (iso: string) =>
  `${formatDate(iso)} ${new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' })}`;

/**
 * /settings/kyc?handle=true and /kyc-verification: where a seller stands with identity checks; the documents
 * uploaded (with progress) and shown back, the seller contract signed, then 'Submit for approval' (the kyc
 * statechart). A team member is told only its seller can do it.
 */
export default function KycPage() {
  const gate = useKycGate();
  const userType = Session.useSelector((s) => s.context.roles?.user_type);
  const session = Session.useActorRef();
  const held = gate !== 'open';
  const logout = (
    <div>
      <Button tone="secondary" onClick={() => session.send({ type: 'logout.requested' })}>
        Logout
      </Button>
    </div>
  );
  if (gate === 'awaitingSeller' || userType === 'team_members') {
    return <MemberView held={gate === 'awaitingSeller'} logout={logout} />;
  }
  return <SellerKyc logout={held ? logout : null} />;
}

function MemberView({ held, logout }: { held: boolean; logout: React.ReactNode }) {
  return (
    <section className={box}>
      <p role="status" className={css({ fontWeight: 'semibold' })}>
        {held ? AWAITING_SELLER_TEXT : 'Approved: your identity is verified.'}
      </p>
      {held ? logout : null}
    </section>
  );
}

function SellerKyc({ logout }: { logout: React.ReactNode }) {
  const kyc = useViewActor(kycMachine, 'kyc');
  useEffect(() => {
    if (!kyc) return;
    const sub = kyc.on('document.ready', ({ document }) => openProof(document));
    // coming back to the tab asks at once whether the review is over
    const onFocus = () => kyc.send({ type: 'review.checked' });
    window.addEventListener('focus', onFocus);
    return () => {
      sub.unsubscribe();
      window.removeEventListener('focus', onFocus);
    };
  }, [kyc]);
  if (!kyc) return null;
  return (
    <section className={cx(box, columns)}>
      <div className={css({ gridColumn: '1 / -1', minWidth: 0 })}>
        <KycStepper kyc={kyc} />
      </div>
      <div className={css({ display: 'grid', gap: '4', minWidth: 0 })}>
        <Status kyc={kyc} />
        {logout}
      </div>
      <Documents kyc={kyc} />
    </section>
  );
}

function Status({ kyc }: { kyc: KycRef }) {
  const loading = useSelector(kyc, (s) => s.hasTag('loading'));
  const failed = useSelector(kyc, (s) => s.matches({ flow: 'failed' }));
  const underReview = useSelector(kyc, (s) => s.matches({ flow: 'underReview' }) || s.matches({ flow: 'checking' }));
  const approved = useSelector(kyc, (s) => s.matches({ flow: 'approved' }));
  const state = useSelector(kyc, (s) => s.context.kyc?.state);
  const reason = useSelector(kyc, (s) => s.context.kyc?.rejection_reason);
  const submittedAt = useSelector(kyc, (s) => s.context.kyc?.submitted_at);
  if (loading) return <p role="status">Loading your identity verification…</p>;
  if (failed) {
    return (
      <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
        <span className={css({ color: 'error' })}>Failed to fetch data</span>
        <Button tone="secondary" onClick={() => kyc.send({ type: 'kyc.retried' })}>
          Retry
        </Button>
      </div>
    );
  }
  if (approved) {
    return (
      <p role="status" className={css({ color: 'success', fontWeight: 'semibold' })}>
        Approved: your identity is verified.
      </p>
    );
  }
  if (underReview) {
    return (
      <div role="status" className={css({ display: 'grid', gap: '1' })}>
        <p className={css({ fontWeight: 'semibold' })}>Submitted: your documents are under review.</p>
        <p className={css({ color: 'fg.muted' })}>
          {submittedAt ? `Sent ${dateTime(submittedAt)}. ` : ''}An administrator reviews them; this page opens the
          portal as soon as they are approved.
        </p>
      </div>
    );
  }
  return (
    <div role="status" className={css({ display: 'grid', gap: '1' })}>
      {state === 'rejected' ? (
        <>
          <p className={css({ color: 'error', fontWeight: 'semibold' })}>Rejected: your documents were not accepted.</p>
          {reason ? <p>Reason: {reason}</p> : null}
          <p className={css({ color: 'fg.muted' })}>Replace what was refused and submit again.</p>
        </>
      ) : (
        <>
          <p className={css({ fontWeight: 'semibold' })}>Not submitted: you have not sent your documents yet.</p>
          <p className={css({ color: 'fg.muted' })}>
            You can use the portal once your identity is verified. An administrator reviews what you send.
          </p>
        </>
      )}
    </div>
  );
}

function Documents({ kyc }: { kyc: KycRef }) {
  const editing = useSelector(kyc, (s) => s.matches({ flow: 'editing' }) || s.matches({ flow: 'submitting' }));
  const documents = useSelector(kyc, (s) => s.context.kyc?.documents);
  const accountType = useSelector(kyc, (s) => s.context.accountType);
  const canSubmit = useSelector(kyc, (s) => s.can({ type: 'kyc.submitted' }));
  const submitting = useSelector(kyc, (s) => s.hasTag('submitting'));
  const idle = useSelector(kyc, (s) => s.matches({ flow: { editing: 'idle' } }));
  const name = useId();
  if (!documents) return null;
  const kinds: UploadKind[] =
    accountType === 'company' ? ['photo_id', 'address_proof', 'business'] : ['photo_id', 'address_proof'];
  return (
    <div className={css({ display: 'grid', gap: '3', minWidth: 0 })}>
      <h3 className={css({ fontWeight: 'semibold' })}>Your documents</h3>
      {editing ? (
        <fieldset className={css({ display: 'flex', gap: '4', flexWrap: 'wrap' })}>
          <legend className={css({ fontSize: 'sm', mb: '1' })}>You sell as</legend>
          {(['individual', 'company'] as const).map((type) => (
            <label key={type} className={css({ display: 'flex', gap: '1', alignItems: 'center' })}>
              <input
                type="radio"
                name={name}
                checked={accountType === type}
                disabled={!idle}
                onChange={() => kyc.send({ type: 'account.changed', accountType: type })}
              />
              {type === 'individual' ? 'An individual' : 'A company'}
            </label>
          ))}
        </fieldset>
      ) : null}
      {kinds.map((kind) => (
        <DocumentCard key={kind} kyc={kyc} kind={kind} document={documents[kind]} editable={editing} />
      ))}
      <ContractCard kyc={kyc} document={documents.seller_contract} editable={editing} />
      {editing ? (
        <div>
          <Button
            disabled={!canSubmit}
            busy={submitting}
            whyDisabled="Upload each document and sign the contract first."
            onClick={() => kyc.send({ type: 'kyc.submitted' })}
          >
            Submit for approval
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function Saved({ kyc, document }: { kyc: KycRef; document: KycDocument }) {
  const opening = useSelector(kyc, (s) => s.hasTag('opening'));
  return (
    <div className={css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap', fontSize: 'sm' })}>
      <span className={css({ overflowWrap: 'anywhere' })}>
        {document.name} · {formatFileSize(document.size)} · {dateTime(document.uploaded_at)}
      </span>
      <Button
        tone="secondary"
        disabled={opening}
        onClick={() => kyc.send({ type: 'document.opened', kind: document.kind })}
      >
        View<span className={css({ srOnly: true })}> {LABELS[document.kind]}</span>
      </Button>
    </div>
  );
}

function DocumentCard({
  kyc,
  kind,
  document,
  editable,
}: {
  kyc: KycRef;
  kind: UploadKind;
  document: KycDocument | null;
  editable: boolean;
}) {
  const uploading = useSelector(kyc, (s) => s.context.uploading);
  const idle = useSelector(kyc, (s) => s.matches({ flow: { editing: 'idle' } }));
  const mine = uploading?.kind === kind ? uploading : null;
  return (
    <div className={card}>
      {editable ? (
        <FileField
          label={LABELS[kind]}
          rules={DEPOSIT_PROOF_RULES}
          file={mine?.file ?? null}
          disabled={!idle}
          progress={mine ? mine.percent : null}
          onFileChange={(file) => {
            if (file) kyc.send({ type: 'document.chosen', kind, file });
          }}
        />
      ) : (
        <span className={css({ fontWeight: 'medium' })}>{LABELS[kind]}</span>
      )}
      {document ? (
        <Saved kyc={kyc} document={document} />
      ) : (
        <span className={css({ fontSize: 'sm' })}>Not uploaded yet</span>
      )}
    </div>
  );
}

function ContractCard({ kyc, document, editable }: { kyc: KycRef; document: KycDocument | null; editable: boolean }) {
  const signing = useSelector(kyc, (s) => s.context.signing);
  const open = useSelector(kyc, (s) => s.matches({ flow: { editing: 'signature' } }));
  const busy = useSelector(kyc, (s) => s.hasTag('signing'));
  const idle = useSelector(kyc, (s) => s.matches({ flow: { editing: 'idle' } }));
  const signerName = useSelector(kyc, (s) => s.context.signerName);
  const canSign = useSelector(kyc, (s) => s.can({ type: 'signature.confirmed' }));
  const sandbox = useSelector(kyc, (s) => s.matches({ flow: { editing: { signature: 'sandbox' } } }));
  const nameId = useId();
  return (
    <div className={card}>
      <span className={css({ fontWeight: 'medium' })}>{LABELS.seller_contract}</span>
      {document ? (
        <Saved kyc={kyc} document={document} />
      ) : (
        <span className={css({ fontSize: 'sm' })}>Not signed yet</span>
      )}
      {editable && !open ? (
        <div>
          <Button tone="secondary" disabled={!idle} busy={busy} onClick={() => kyc.send({ type: 'signing.started' })}>
            {document ? 'Sign again' : 'Sign the seller contract'}
          </Button>
        </div>
      ) : null}
      {open && signing ? (
        <div className={css({ display: 'grid', gap: '2' })}>
          {sandbox ? (
            <form
              className={css({ display: 'grid', gap: '2' })}
              onSubmit={(e) => {
                e.preventDefault();
                kyc.send({ type: 'signature.confirmed' });
              }}
            >
              <pre
                className={css({
                  whiteSpace: 'pre-wrap',
                  fontSize: 'sm',
                  bg: 'bg.muted',
                  p: '3',
                  borderRadius: 'md',
                  maxHeight: '16rem',
                  overflowY: 'auto',
                })}
              >
                {signing.contract_text}
              </pre>
              <label htmlFor={nameId} className={css({ fontSize: 'sm' })}>
                Type your full name to sign
              </label>
              <input
                id={nameId}
                className={inputBox}
                value={signerName}
                maxLength={100}
                onChange={(e) => kyc.send({ type: 'signer.changed', name: e.target.value })}
              />
              <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>
                Sandbox signer: a test signature for this installation (Zoho Sign signs when it is configured).
              </p>
              <div className={css({ display: 'flex', gap: '2' })}>
                <Button type="submit" disabled={!canSign} busy={busy}>
                  Sign
                </Button>
                <Button tone="secondary" onClick={() => kyc.send({ type: 'signature.cancelled' })}>
                  Cancel
                </Button>
              </div>
            </form>
          ) : (
            <>
              <iframe
                title="Sign the seller contract with Zoho Sign"
                src={signing.sign_url ?? undefined}
                className={css({ width: '100%', height: '32rem', border: '1px solid {colors.border}' })}
              />
              <div className={css({ display: 'flex', gap: '2' })}>
                <Button busy={busy} onClick={() => kyc.send({ type: 'signature.completed' })}>
                  I have signed
                </Button>
                <Button tone="secondary" onClick={() => kyc.send({ type: 'signature.cancelled' })}>
                  Cancel
                </Button>
              </div>
            </>
          )}
        </div>
      ) : null}
    </div>
  );
}
