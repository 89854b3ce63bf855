import { useId } from 'react';
import { css, cx } from 'styled-system/css';
import { Link } from 'wouter';
import type { AdditionalTemplate } from '../../../machines/listings-api';
import { routes } from '../../routes';
import { Button } from '../../ui/button';
import { FieldError } from '../../ui/field';
import { Loading, Skeleton } from '../../ui/skeleton';
import { choice, muted } from './listing-styles';

/** The most templates one listing carries (the contract's list of at most 10 ids). */
export const MAX_PICKED_TEMPLATES = 10;

/** Where the seller's templates are: loading, loaded, or failed to load (Retry). */
export type TemplatesStatus = 'loading' | 'ready' | 'failed';

/**
 * The seller's additional templates (Settings › Templates) to attach to a listing, ticked, at most 10: Add
 * Inventory's form and Inventory's edit dialog. `value` and `onChange` are the ids in the order of the list.
 */
export function TemplatePicker({
  status,
  templates,
  onRetry,
  value,
  onChange,
  error,
}: {
  status: TemplatesStatus;
  templates: readonly AdditionalTemplate[];
  onRetry: () => void;
  value: readonly number[];
  onChange: (ids: number[]) => void;
  error: string | null;
}) {
  const errorId = useId();
  return (
    <fieldset
      aria-describedby={error ? errorId : undefined}
      className={css({ border: 'none', p: 0, m: 0, display: 'grid', gap: '2', minWidth: 0 })}
    >
      <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '1' })}>
        Additional templates (optional)
      </legend>
      {status === 'loading' ? (
        <Loading label="Loading your templates">
          <Skeleton height="40px" />
        </Loading>
      ) : status === 'failed' ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to load your templates</span>
          <Button tone="secondary" onClick={onRetry}>
            Retry
          </Button>
        </div>
      ) : templates.length === 0 ? (
        <p className={muted}>
          No templates yet: add reusable texts in <Link href={routes.templates.pattern}>Settings › Templates</Link>.
        </p>
      ) : (
        <div className={css({ display: 'grid', gap: '2' })}>
          {templates.map((t) => {
            const checked = value.includes(t.template_id);
            return (
              <label key={t.template_id} className={cx(choice, css({ alignItems: 'flex-start', minWidth: 0 }))}>
                <input
                  type="checkbox"
                  checked={checked}
                  disabled={!checked && value.length >= MAX_PICKED_TEMPLATES}
                  onChange={(e) => {
                    const next = e.currentTarget.checked
                      ? [...value, t.template_id]
                      : value.filter((id) => id !== t.template_id);
                    // in the seller's order of the list, each once
                    onChange(templates.map((x) => x.template_id).filter((id) => next.includes(id)));
                  }}
                />
                <span className={css({ minWidth: 0 })}>
                  <span className={css({ fontWeight: 'semibold', display: 'block', overflowWrap: 'anywhere' })}>
                    {t.name}
                  </span>
                  <span className={cx(muted, css({ display: 'block' }))}>{t.content}</span>
                </span>
              </label>
            );
          })}
        </div>
      )}
      <FieldError id={errorId} error={error} />
    </fieldset>
  );
}
