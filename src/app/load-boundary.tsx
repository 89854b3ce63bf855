import { Component, type ErrorInfo, type ReactNode } from 'react';
import { css } from 'styled-system/css';
import { Button } from '../ui/button';

/** What a chunk that did not arrive looks like (Chromium, Firefox, Safari, and Vite's preload of its CSS). */
const CHUNK_FAILURE =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS/i;

export const isChunkFailure = (error: unknown) => error instanceof Error && CHUNK_FAILURE.test(error.message);

export const LOAD_FAILED_TITLE = 'This page could not be loaded';
export const LOAD_FAILED_TEXT = 'Check your connection, then reload the page.';
export const BROKEN_TITLE = 'Something went wrong on this page';
export const BROKEN_TEXT = 'Reloading the page usually helps.';

const reload = () => window.location.reload();

/** The message in place of a part that failed: what happened and a Reload button (and Close for a popup). */
export function LoadFailed({
  error,
  compact = false,
  onDismiss,
}: {
  error: unknown;
  compact?: boolean;
  onDismiss?: () => void;
}) {
  const chunk = isChunkFailure(error);
  return (
    <div
      role="alert"
      className={css({
        bg: 'bg',
        borderRadius: 'lg',
        p: compact ? '4' : '8',
        display: 'grid',
        gap: '3',
        justifyItems: 'start',
      })}
    >
      <h2 className={css({ fontSize: compact ? 'md' : 'xl', fontWeight: 'bold' })}>
        {chunk ? LOAD_FAILED_TITLE : BROKEN_TITLE}
      </h2>
      <p className={css({ color: 'ink.700' })}>{chunk ? LOAD_FAILED_TEXT : BROKEN_TEXT}</p>
      <div className={css({ display: 'flex', gap: '2' })}>
        <Button onClick={reload}>Reload</Button>
        {onDismiss ? (
          <Button tone="secondary" onClick={onDismiss}>
            Close
          </Button>
        ) : null}
      </div>
    </div>
  );
}

interface Props {
  children: ReactNode;
  /** A new key (the path) clears the failure: another page may load where this one did not. */
  resetKey?: string;
  /** In place of the failed part; the default is `LoadFailed`. */
  fallback?: (error: unknown) => ReactNode;
}

/**
 * An error boundary for code loaded on demand: a chunk that fails to load (offline, or a redeployment removed
 * it) or a part that throws shows a message with Reload where it was, and everything around it keeps working.
 */
export class LoadBoundary extends Component<Props, { error: unknown; failed: boolean; key?: string }> {
  override state: { error: unknown; failed: boolean; key?: string } = {
    error: null,
    failed: false,
    key: this.props.resetKey,
  };

  static getDerivedStateFromError(error: unknown) {
    return { error, failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: { error: unknown; failed: boolean; key?: string }) {
    return props.resetKey === state.key ? null : { error: null, failed: false, key: props.resetKey };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('A part of the page failed to load or render', error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return this.props.fallback ? this.props.fallback(this.state.error) : <LoadFailed error={this.state.error} />;
  }
}

/** A popup's place (top right on a desktop, under the top bar on a phone) for the message of its failed code. */
export function FloatingFailure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div
      role="dialog"
      aria-label={label}
      className={css({
        position: 'fixed',
        zIndex: 60,
        top: { base: '60px', desktop: '72px' },
        left: { base: '2', desktop: 'auto' },
        right: { base: '2', desktop: '6' },
        width: { base: 'auto', desktop: '380px' },
        boxShadow: '0 12px 40px rgba(17, 24, 39, 0.18)',
        borderRadius: 'lg',
      })}
    >
      {children}
    </div>
  );
}
