import { css } from 'styled-system/css';
import { Session } from '../../app/session';

/** /settings/myAccount: the caller's own account (editing comes with the settings issue); the shell's h1 names it. */
export default function MyAccountPage() {
  const account = Session.useSelector((s) => s.context.account);
  if (!account) return null;
  const rows: Array<[string, string]> = [
    ['Name', `${account.first_name} ${account.last_name}`],
    ['Email', account.email],
    [
      'Account type',
      account.user_type === 'team_members' ? 'Team member' : account.user_type === 'admin' ? 'Administrator' : 'Seller',
    ],
    ['Currency', account.currency],
  ];
  return (
    <section
      aria-label="Account details"
      className={css({ bg: 'bg', borderRadius: 'lg', p: { base: '5', desktop: '8' }, maxWidth: '720px' })}
    >
      <dl className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', desktop: '160px 1fr' }, gap: '2' })}>
        {rows.map(([term, value]) => (
          <div key={term} className={css({ display: 'contents' })}>
            <dt className={css({ color: 'fg.muted' })}>{term}</dt>
            <dd className={css({ fontWeight: 'medium', mb: { base: '2', desktop: '0' } })}>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
