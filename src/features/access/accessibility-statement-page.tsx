import { css } from 'styled-system/css';
import { Link } from 'wouter';
import { useDocumentTitle } from '../../lib/use-document-title';
import { documentTitle, paths, routes } from '../../routes';

const section = css({ display: 'grid', gap: '2', fontSize: 'sm', '& h2': { fontSize: 'md', fontWeight: 'bold' } });
const link = css({ color: 'accent', textDecoration: 'underline' });

/** The day this version was built from (the commit's date), when the axe scan of every page last passed in CI. */
export const LAST_CHECKED = __LAST_CHECKED__;

/**
 * /accessibility: what SB Portal promises (WCAG 2.2 AA), how it is checked, what is known not to meet it, and
 * how to tell us. Public: a person who cannot log in must be able to read it.
 */
export default function AccessibilityStatementPage() {
  const title = routes.accessibility.title as string;
  useDocumentTitle(documentTitle(title));
  const checked = new Date(`${LAST_CHECKED}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
  return (
    <main className={css({ minHeight: '100dvh', display: 'flex', justifyContent: 'center', p: '4', bg: 'bg.subtle' })}>
      <article
        className={css({
          width: '100%',
          maxWidth: '720px',
          alignSelf: 'start',
          bg: 'bg',
          borderRadius: 'lg',
          p: { base: '5', desktop: '8' },
          display: 'grid',
          gap: '4',
          overflowWrap: 'anywhere',
        })}
      >
        <h1 className={css({ fontSize: '2xl', fontWeight: 'bold' })}>{title}</h1>
        <section aria-labelledby="a11y-aim" className={section}>
          <h2 id="a11y-aim">Our aim</h2>
          <p>
            SB Portal aims to meet the Web Content Accessibility Guidelines (WCAG) 2.2 at level AA on every page, on a
            phone and on a desktop, with a keyboard and with a screen reader.
          </p>
        </section>
        <section aria-labelledby="a11y-checked" className={section}>
          <h2 id="a11y-checked">How we check</h2>
          <p>
            Before any version is released, an automated scan (axe, with the WCAG 2.2 AA rules) opens every page of the
            portal in a browser, logged out, as a seller and as the back office, and in the states people meet: open
            panels and drawers, forms with their errors. A version with a serious or critical issue is not released.
          </p>
          <p>
            This version was checked on <time dateTime={LAST_CHECKED}>{checked}</time>.
          </p>
        </section>
        <section aria-labelledby="a11y-known" className={section}>
          <h2 id="a11y-known">What we know is not yet right</h2>
          <ul className={css({ listStyle: 'disc', pl: '5', display: 'grid', gap: '1' })}>
            <li>
              Charts show their figures as a table beside them; the charts themselves cannot be read by a screen reader
              bar by bar.
            </li>
            <li>The card payment form is Stripe's own: its accessibility is Stripe's.</li>
            <li>An automated scan finds about half of the problems people meet; tell us about the rest.</li>
          </ul>
        </section>
        <section aria-labelledby="a11y-tell" className={section}>
          <h2 id="a11y-tell">Tell us</h2>
          <p>
            If something in the portal does not work for you, write to{' '}
            <a className={link} href="mailto:accessibility@sbportal.example">
              accessibility@sbportal.example
            </a>
            . We aim to answer within 5 working days.
          </p>
        </section>
        <Link href={paths.login} className={link}>
          Back to log in
        </Link>
      </article>
    </main>
  );
}
