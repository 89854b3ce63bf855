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
      className={css({ bg: 'bg', borderRadius: 'lg', p: { base: '5', desktop: '8' } })}
    >
      {/* the details side by side as the width allows: one column on a phone, all four on a wide screen */}
      <dl
        className={css({
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 16rem), 1fr))',
          gap: '5',
        })}
      >
        {rows.map(([term, value]) => (
          <div key={term} className={css({ display: 'grid', gap: '1', minWidth: 0 })}>
            <dt className={css({ color: 'fg.muted', fontSize: 'sm' })}>{term}</dt>
            <dd className={css({ fontWeight: 'medium', overflowWrap: 'anywhere' })}>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
