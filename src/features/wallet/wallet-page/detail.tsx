import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { DEPOSIT_PROOF_RULES } from '../../../lib/file-rules';
import { Button } from '../../../ui/button';
import { FileField } from '../../../ui/file-field';
import { Modal } from '../../../ui/modal';
import { DepositStatusBadge, DepositTracking } from '../deposit-tracking';
import { Row } from './detail-row';
import { dateTime, money, useWallet } from './wallet-parts';

/** The detail view of a row: every field of the deposit (with its proof) or of the transaction. */
export function Detail() {
  const wallet = useWallet();
  const detail = useSelector(wallet, (s) => s.context.detail);
  const loadingProof = useSelector(wallet, (s) => s.hasTag('loadingProof'));
  const addingProof = useSelector(wallet, (s) => s.hasTag('addingProof'));
  const [chosen, setChosen] = useState<File | null>(null);
  const close = () => wallet.send({ type: 'detail.closed' });
  if (!detail) return null;
  if (detail.kind === 'deposit') {
    const d = detail.deposit;
    return (
      <Modal open onClose={close} closeOnOutsideClick title={`Deposit #${d.deposit_id}`}>
        <dl>
          <Row label="Amount">{money(d.amount, d.currency)}</Row>
          <Row label="Status">
            <DepositStatusBadge deposit={d} />
          </Row>
          <Row label="Tracking">
            <DepositTracking deposit={d} now={Date.now()} />
          </Row>
          <Row label="Payment transfer by">{d.payment_transfer_by}</Row>
          <Row label="Reference">{d.reference}</Row>
          <Row label="Submitted">{dateTime(d.created_at)}</Row>
          <Row label="Decided">{d.decided_at ? dateTime(d.decided_at) : '-'}</Row>
          <Row label="Notes">{d.notes ?? '-'}</Row>
          <Row label="Proof">
            {d.proof ? (
              <Button
                tone="secondary"
                busy={loadingProof}
                disabled={loadingProof}
                onClick={() => wallet.send({ type: 'proof.requested' })}
              >
                View proof ({d.proof.name})
              </Button>
            ) : d.status === 'pending' ? (
              // sent without a proof: it may follow while the request is pending (never replaced once sent)
              <FileField
                label="Add proof of payment"
                rules={DEPOSIT_PROOF_RULES}
                file={addingProof ? chosen : null}
                onFileChange={(file) => {
                  setChosen(file);
                  if (file) wallet.send({ type: 'proof.chosen', file });
                }}
                disabled={addingProof}
              />
            ) : (
              '-'
            )}
          </Row>
        </dl>
      </Modal>
    );
  }
  const t = detail.transaction;
  return (
    <Modal open onClose={close} closeOnOutsideClick title={`Transaction #${t.id}`}>
      <dl>
        <Row label="Type">{t.type}</Row>
        <Row label="Description">{t.description}</Row>
        <Row label="Amount">{money(t.amount, t.currency)}</Row>
        <Row label="Balance after">{money(t.balance_after, t.currency)}</Row>
        <Row label="Date">{dateTime(t.created_at)}</Row>
        <Row label="Deposit">{t.deposit_id === null ? '-' : `#${t.deposit_id}`}</Row>
      </dl>
    </Modal>
  );
}
