import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { css } from 'styled-system/css';
import { Link } from 'wouter';
import type { CurrencyCode } from '../../../../machines/deposit.machine';
import { selectAllowedPermissions } from '../../../../machines/session.machine';
import { canOpen } from '../../../app/route-access';
import { Session } from '../../../app/session';
import { routes } from '../../../routes';
import { Button } from '../../../ui/button';
import { Loading, Skeleton } from '../../../ui/skeleton';
import { TopUpDrawer } from '../top-up-drawer';
import { card, money, useWallet } from './wallet-parts';

export function Balances() {
  const wallet = useWallet();
  const details = useSelector(wallet, (s) => s.context.details);
  const failed = useSelector(wallet, (s) => s.matches({ details: 'failed' }));
  const account = Session.useSelector((s) => s.context.account?.currency) as CurrencyCode | undefined;
  const permissions = Session.useSelector(selectAllowedPermissions, (a, b) => a.join() === b.join());
  const isAdmin = Session.useSelector((s) => s.context.account?.user_type === 'admin');
  const mayOpenPayouts = canOpen(routes.payouts.href({}), permissions, isAdmin);
  const [topUp, setTopUp] = useState(false);
  return (
    <section aria-labelledby="wallet-balances" className={card}>
      <div
        className={css({
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          gap: '3',
          flexWrap: 'wrap',
        })}
      >
        <h2 id="wallet-balances" className={css({ fontSize: 'md', fontWeight: 'bold' })}>
          SB Pay balance
        </h2>
        <div className={css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap' })}>
          {mayOpenPayouts ? (
            <Link className={css({ fontSize: 'sm' })} href={routes.payouts.href({})}>
              Payouts
            </Link>
          ) : null}
          <Button onClick={() => setTopUp(true)}>Top up</Button>
        </div>
      </div>
      {failed ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => wallet.send({ type: 'details.retried' })}>
            Retry
          </Button>
        </div>
      ) : !details ? (
        <Loading label="Loading the balances">
          <div className={css({ display: 'flex', gap: '3' })}>
            {[1, 2, 3, 4].map((i) => (
              <Skeleton key={i} width="10rem" height="64px" radius="md" />
            ))}
          </div>
        </Loading>
      ) : (
        <ul
          aria-label="Balances"
          className={css({
            display: 'grid',
            gap: '3',
            gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 12rem), 1fr))',
            listStyle: 'none',
            p: 0,
            m: 0,
          })}
        >
          {details.balances.map((b) => (
            <li
              key={b.currency}
              aria-label={`${b.currency} balance`}
              className={css({
                border: '1px solid {colors.border}',
                borderRadius: 'md',
                p: '3',
                display: 'grid',
                gap: '1',
              })}
            >
              <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>{b.currency}</span>
              <span data-testid={`balance-${b.currency}`} className={css({ fontSize: 'xl', fontWeight: 'bold' })}>
                {money(b.balance, b.currency)}
              </span>
              {b.pending > 0 ? (
                <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>
                  {money(b.pending, b.currency)} pending admin approval
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {details ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>Your top-up reference: {details.reference}</p>
      ) : null}
      <TopUpDrawer open={topUp} onClose={() => setTopUp(false)} currency={account ?? null} />
    </section>
  );
}
