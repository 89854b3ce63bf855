import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import { CONTACTS_LOAD_ERROR, sellerContactsMachine } from '../../../machines/seller-contacts.machine';
import { useViewActor } from '../../app/view-actor';
import { Panel, PanelEmpty, PanelFailed, PanelLoading } from './settings-parts';

const muted = css({ fontSize: 'sm', color: 'fg.muted' });

/** /settings/seller-contacts: the people of SB Portal the seller can reach (its account manager first). */
export default function SellerContactsPage() {
  const list = useViewActor(sellerContactsMachine, 'settings-seller-contacts', { filters: {} });
  const items = useSelector(list, (s) => s?.context.items ?? []);
  const loading = useSelector(list, (s) => s?.hasTag('loadingFirst') ?? true);
  const failed = useSelector(list, (s) => s?.matches('failed') ?? false);
  const empty = useSelector(list, (s) => s?.matches('empty') ?? false);
  return (
    <Panel label="Seller contacts">
      <p className={muted}>Who to contact about your account, your sales and your payouts.</p>
      {failed ? (
        <PanelFailed message={CONTACTS_LOAD_ERROR} onRetry={() => list?.send({ type: 'list.retried' })} />
      ) : loading ? (
        <PanelLoading label="Loading your contacts" rows={2} />
      ) : empty ? (
        <PanelEmpty>No contacts are assigned to your account yet.</PanelEmpty>
      ) : (
        <ul
          aria-label="Contacts"
          className={css({
            listStyle: 'none',
            p: 0,
            m: 0,
            display: 'grid',
            gap: '3',
            gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 18rem), 1fr))',
          })}
        >
          {items.map((c) => (
            <li
              key={c.id}
              aria-label={c.name}
              className={css({
                border: '1px solid {colors.border}',
                borderRadius: 'md',
                p: '4',
                display: 'grid',
                gap: '1',
              })}
            >
              <strong>{c.name}</strong>
              <span className={muted}>{c.role}</span>
              <a href={`mailto:${c.email}`} className={css({ overflowWrap: 'anywhere' })}>
                {c.email}
              </a>
              {c.phone ? <a href={`tel:${c.phone.replaceAll(' ', '')}`}>{c.phone}</a> : null}
              {c.hours ? <span className={muted}>{c.hours}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
