import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import { CARDS_LOAD_ERROR, type cardListMachine, storedCardsMachine } from '../../../machines/settings-cards.machine';
import { useViewActor } from '../../app/view-actor';
import { Button } from '../../ui/button';
import { FormFooter } from '../../ui/form-footer';
import { Modal } from '../../ui/modal';
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
  return (
    <Panel label="Stored cards">
      <p className={css({ color: 'fg.muted', fontSize: 'sm' })}>
        Cards saved when you paid with them. Only the brand, the last four digits and the expiry are kept.
      </p>
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
    </Panel>
  );
}
