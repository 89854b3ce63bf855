import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import {
  ADD_CARD_TEXT,
  CARDS_LOAD_ERROR,
  type cardListMachine,
  type NewCard,
  storedCardsMachine,
} from '../../../machines/settings-cards.machine';
import { useViewActor } from '../../app/view-actor';
import { Button } from '../../ui/button';
import { FormFooter } from '../../ui/form-footer';
import { Modal } from '../../ui/modal';
import { TextField } from '../../ui/text-field';
import { Panel, PanelEmpty, PanelFailed, PanelLoading } from './settings-parts';

/** /settings/stored-cards: the cards saved at checkout (payment method 3), each removable. */
export default function StoredCardsPage() {
  const page = useViewActor(storedCardsMachine, 'settings-stored-cards');
  const list = useSelector(page, (s) => s?.children.cardList as ActorRefFrom<typeof cardListMachine> | undefined);
  const items = useSelector(list, (s) => s?.context.items ?? []);
  const loading = useSelector(list, (s) => s?.hasTag('loadingFirst') ?? true);
  const failed = useSelector(list, (s) => s?.matches('failed') ?? false);
  const empty = useSelector(list, (s) => s?.matches('empty') ?? false);
  const busy = useSelector(page, (s) => s?.hasTag('busy') ?? false);
  const confirming = useSelector(page, (s) => (s?.matches('confirming') ? s.context.target : null));
  const canAdd = useSelector(page, (s) => (s?.matches('browsing') ?? false) && s?.context.canAdd === true);
  const adding = useSelector(page, (s) => s?.matches('adding') ?? false);
  const verifying = useSelector(page, (s) => s?.matches({ adding: 'verifying' }) ?? false);
  const failure = useSelector(page, (s) => (s?.matches({ adding: 'failed' }) ? s.context.failure : null));
  const card = useSelector(page, (s) => s?.context.card);
  const change = (field: keyof NewCard) => (e: { currentTarget: { value: string } }) =>
    page?.send({ type: 'add.changed', field, value: e.currentTarget.value });
  return (
    <Panel label="Stored cards">
      <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>
        Cards saved when you paid with them. Only the brand, the last four digits and the expiry are kept.
      </p>
      {canAdd ? (
        <div>
          <Button onClick={() => page?.send({ type: 'add.requested' })}>{ADD_CARD_TEXT.add}</Button>
        </div>
      ) : null}
      {failed ? (
        <PanelFailed message={CARDS_LOAD_ERROR} onRetry={() => list?.send({ type: 'list.retried' })} />
      ) : loading ? (
        <PanelLoading label="Loading your cards" rows={2} />
      ) : empty ? (
        <PanelEmpty>No stored cards. A card you pay with can be kept for your next purchase.</PanelEmpty>
      ) : (
        <ul aria-label="Cards" className={css({ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: '3' })}>
          {items.map((c) => (
            <li
              key={c.id}
              className={css({
                border: '1px solid {colors.border}',
                borderRadius: 'md',
                p: '4',
                display: 'flex',
                gap: '3',
                alignItems: 'center',
                flexWrap: 'wrap',
              })}
            >
              <div className={css({ flex: '1 1 12rem', minWidth: 0 })}>
                <strong className={css({ textTransform: 'capitalize' })}>{c.brand}</strong> {c.number}
                <p className={css({ fontSize: 'sm', color: 'fg.muted', overflowWrap: 'anywhere' })}>
                  {c.holder_name} · expires {String(c.exp_month).padStart(2, '0')}/{c.exp_year}
                </p>
              </div>
              <Button
                tone="secondary"
                disabled={busy || !page}
                aria-label={`Remove the ${c.brand} card ending ${c.last4}`}
                onClick={() => page?.send({ type: 'remove.requested', card: c })}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Modal
        open={confirming !== null}
        title="Remove this card?"
        onClose={() => page?.send({ type: 'remove.cancelled' })}
        footer={
          <FormFooter
            valid
            submitLabel="Remove"
            onSubmit={() => page?.send({ type: 'remove.confirmed' })}
            onCancel={() => page?.send({ type: 'remove.cancelled' })}
          />
        }
      >
        <p>{confirming ? `${confirming.brand} ${confirming.number}` : ''}: it will no longer be offered at checkout.</p>
      </Modal>
      <Modal
        open={adding}
        title={ADD_CARD_TEXT.add}
        onClose={() => page?.send({ type: 'add.cancelled' })}
        footer={
          <FormFooter
            valid={!verifying}
            submitting={verifying}
            submitLabel="Verify and add"
            onSubmit={() => page?.send({ type: 'add.submitted' })}
            onCancel={() => page?.send({ type: 'add.cancelled' })}
          />
        }
      >
        <form
          aria-label="Card details"
          className={css({ display: 'grid', gap: '3' })}
          onSubmit={(e) => {
            e.preventDefault();
            page?.send({ type: 'add.submitted' });
          }}
        >
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            The card is verified with its bank; no money is taken. Test cards: 4242 4242 4242 4242 is added, 4000 0000
            0000 0002 is declined.
          </p>
          <TextField
            label="Name on the card"
            autoComplete="cc-name"
            value={card?.holder ?? ''}
            onChange={change('holder')}
            disabled={verifying}
          />
          <TextField
            label="Card number"
            inputMode="numeric"
            autoComplete="cc-number"
            value={card?.number ?? ''}
            onChange={change('number')}
            disabled={verifying}
          />
          <div className={css({ display: 'grid', gap: '3', gridTemplateColumns: '1fr 1fr' })}>
            <TextField
              label="Expiry (MM/YY)"
              autoComplete="cc-exp"
              value={card?.expiry ?? ''}
              onChange={change('expiry')}
              disabled={verifying}
            />
            <TextField
              label="CVC"
              inputMode="numeric"
              autoComplete="cc-csc"
              value={card?.cvc ?? ''}
              onChange={change('cvc')}
              disabled={verifying}
            />
          </div>
          {verifying ? <p aria-live="polite">{ADD_CARD_TEXT.verifying}</p> : null}
          {failure ? (
            <p role="alert" className={css({ color: 'error', fontWeight: 'semibold' })}>
              {ADD_CARD_TEXT.failed}: {failure}
            </p>
          ) : null}
          <button type="submit" hidden aria-hidden tabIndex={-1} />
        </form>
      </Modal>
    </Panel>
  );
}
