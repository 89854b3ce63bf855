import operations from 'virtual:seller-api-reference';
import { css } from 'styled-system/css';
import { routes } from '../../routes';

const card = css({ bg: 'bg', borderRadius: 'lg', p: { base: '4', desktop: '5' }, display: 'grid', gap: '3' });
const code = css({
  fontFamily: 'mono',
  fontSize: 'xs',
  bg: 'bg.muted',
  p: '2',
  borderRadius: 'md',
  overflowX: 'auto',
  whiteSpace: 'pre-wrap',
  overflowWrap: 'anywhere',
});
const SCOPES = ['listings', 'sales', 'delivery'] as const;

/**
 * The seller API for outsiders: what a token may call, rendered from the contract (openapi/portal.yaml) when the
 * app is built, so it cannot drift from what the server enforces.
 */
export default function ApiReferencePage() {
  return (
    <div className={css({ display: 'grid', gap: '4' })}>
      <section aria-labelledby="api-reference" className={card}>
        <h2 id="api-reference" className={css({ fontSize: 'md', fontWeight: 'bold' })}>
          Seller API reference
        </h2>
        <p className={css({ fontSize: 'sm' })}>
          Create a token in <a href={routes.apiTokens.href({})}>API tokens</a> and send it with every call as{' '}
          <code>Authorization: Bearer sbk_…</code>. A token acts as you, with your permissions, on the operations of its
          scopes only: another scope answers 403, an expired or revoked token 401. Every answer is{' '}
          <code>{'{ success, data?, message? }'}</code>; a 422 adds <code>errors: [{'{ path, message }'}]</code>. Calls
          that hold stock need an <code>Idempotency-Key</code>: send the same key again to retry safely.
        </p>
        <p className={css({ fontSize: 'sm' })}>
          To sell seats elsewhere without selling them twice: hold them (<code>POST /api/my-listings/holds</code>, 1 to
          15 minutes), then confirm the hold when your channel sold them, or release it. A hold not confirmed in time
          goes back on sale by itself.
        </p>
      </section>
      {SCOPES.map((scope) => (
        <section key={scope} aria-labelledby={`scope-${scope}`} className={card}>
          <h2 id={`scope-${scope}`} className={css({ fontSize: 'md', fontWeight: 'bold' })}>
            Scope: {scope}
          </h2>
          {operations
            .filter((op) => op.scope === scope)
            .map((op) => (
              <article
                key={op.operationId}
                aria-label={`${op.method} ${op.path}`}
                className={css({ display: 'grid', gap: '1' })}
              >
                <h3 className={css({ fontSize: 'sm', fontWeight: 'bold' })}>
                  <code>
                    {op.method} /api{op.path}
                  </code>{' '}
                  {op.summary}
                </h3>
                <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{op.description}</p>
                {op.parameters.length > 0 ? (
                  <p className={css({ fontSize: 'xs' })}>
                    Parameters:{' '}
                    {op.parameters.map((p) => `${p.name} (${p.in}${p.required ? ', required' : ''})`).join('; ')}
                  </p>
                ) : null}
                <pre className={code}>{op.example}</pre>
              </article>
            ))}
        </section>
      ))}
    </div>
  );
}
