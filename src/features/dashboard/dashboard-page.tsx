import { css } from 'styled-system/css';
import { selectFirstName } from '../../../machines/session.machine';
import { Session } from '../../app/session';
import { Button } from '../../ui/button';

export default function DashboardPage() {
  const firstName = Session.useSelector(selectFirstName);
  const session = Session.useActorRef();
  const leaving = Session.useSelector((s) => s.matches('loggingOut'));
  return (
    <main className={css({ p: { base: '4', desktop: '8' }, maxWidth: '1100px', mx: 'auto' })}>
      <header
        className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '4', mb: '6' })}
      >
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>Welcome {firstName}</h1>
        <Button tone="secondary" busy={leaving} onClick={() => session.send({ type: 'logout.requested' })}>
          Logout
        </Button>
      </header>
      <p className={css({ color: 'fg.muted' })}>Your sales, listings and wallet will show here.</p>
    </main>
  );
}
