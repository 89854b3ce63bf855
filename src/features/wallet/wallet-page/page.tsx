import { useEffect } from 'react';
import { css } from 'styled-system/css';
import { walletMachine } from '../../../../machines/wallet.machine';
import { useViewActor } from '../../../app/view-actor';
import { openProof } from '../../../lib/proof-file';
import { Balances } from './balances';
import { Deposits } from './deposits';
import { Detail } from './detail';
import { Transactions } from './transactions';
import { exportCsv, WalletContext } from './wallet-parts';

/** reports/wallet: the SB Pay balances, the deposit history (live while a request is pending) and the transactions. */
export default function WalletPage() {
  const wallet = useViewActor(walletMachine, 'wallet', undefined, { systemId: 'wallet' });
  useEffect(() => {
    if (!wallet) return;
    const csv = wallet.on('csv.ready', exportCsv);
    const proof = wallet.on('proof.ready', ({ proof }) => openProof(proof));
    return () => {
      csv.unsubscribe();
      proof.unsubscribe();
    };
  }, [wallet]);
  if (!wallet) return null;
  return (
    <WalletContext.Provider value={wallet}>
      <div className={css({ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr)', gap: '4' })}>
        <Balances />
        <Deposits />
        <Transactions />
        <Detail />
      </div>
    </WalletContext.Provider>
  );
}
