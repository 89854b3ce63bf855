import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { createPortal } from 'react-dom';
import { css, cx } from 'styled-system/css';
import { Link } from 'wouter';
import type { ActorRefFrom } from 'xstate';
import {
  SELLER_PANEL_FULL_OFFSET_PX,
  SELLER_PANEL_OFFSET_PX,
  type SellerLevel,
  type SellerLevelSummary,
  type sellerPanelMachine,
} from '../../../machines/seller-panel.machine';
import { Session } from '../../app/session';
import { formatMoney } from '../../lib/money';
import { routes } from '../../routes';
import { Button } from '../../ui/button';
import { CheckIcon, ChevronLeftIcon, ChevronRightIcon, CloseIcon } from '../../ui/icons';
import { Loading, Skeleton } from '../../ui/skeleton';
import { useEscapeKey } from '../../ui/use-escape-key';

type PanelRef = ActorRefFrom<typeof sellerPanelMachine>;

const gbp = (minor: number) => formatMoney({ minor, currency: 'GBP' });

/**
 * The seller panel: a popover beside the side menu, 60 px from the left edge when the menu is collapsed and
 * 165 px in full display (spec section 9), level with the name that opened it. Escape, Close or a click
 * elsewhere closes it.
 */
export default function SellerPanel({ collapsed }: { collapsed: boolean }) {
  const panel = Session.useSelector((s) => s.context.views.sellerPanel) as PanelRef | undefined;
  if (!panel) return null;
  return <PanelFrame panel={panel} collapsed={collapsed} />;
}

function PanelFrame({ panel, collapsed }: { panel: PanelRef; collapsed: boolean }) {
  const box = useRef<HTMLElement>(null);
  const close = () => panel.send({ type: 'panel.closed' });
  useEscapeKey(true, close);
  useEffect(() => {
    const onDown = (event: MouseEvent) => {
      const target = event.target as Element | null;
      if (!target || box.current?.contains(target) || target.closest('[data-seller-panel-toggle]')) return;
      panel.send({ type: 'panel.closed' });
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [panel]);
  useEffect(() => {
    box.current?.focus();
  }, []);
  const name = Session.useSelector((s) =>
    [s.context.account?.first_name, s.context.account?.last_name].filter(Boolean).join(' '),
  );
  const loading = useSelector(panel, (s) => s.hasTag('loading'));
  const failed = useSelector(panel, (s) => s.hasTag('error'));
  const data = useSelector(panel, (s) => s.context.data);
  const session = Session.useActorRef();

  return createPortal(
    <section
      ref={box}
      role="dialog"
      aria-label="Seller panel"
      tabIndex={-1}
      data-testid="seller-panel"
      className={css({
        position: 'fixed',
        top: '12px',
        zIndex: 45,
        width: 'min(360px, calc(100vw - 24px))',
        maxHeight: 'calc(100dvh - 24px)',
        overflowY: 'auto',
        bg: 'bg',
        borderRadius: 'lg',
        boxShadow: '0 10px 40px rgba(17, 24, 39, 0.25)',
        p: '4',
        display: 'grid',
        gap: '4',
        outline: 'none',
      })}
      style={{ left: collapsed ? SELLER_PANEL_OFFSET_PX : SELLER_PANEL_FULL_OFFSET_PX }}
    >
      <header className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '2' })}>
        <h2 className={css({ fontSize: 'md', fontWeight: 'bold', overflowWrap: 'anywhere' })}>{name}</h2>
        <button
          type="button"
          aria-label="Close"
          onClick={close}
          className={css({
            display: 'inline-flex',
            p: '2',
            borderRadius: 'md',
            cursor: 'pointer',
            _hover: { bg: 'bg.muted' },
          })}
        >
          <CloseIcon size={16} />
        </button>
      </header>

      {loading ? (
        <Loading label="Loading your seller level">
          <Skeleton height="72px" radius="md" />
          <Skeleton height="160px" radius="md" />
        </Loading>
      ) : failed ? (
        <div role="alert" className={css({ display: 'flex', gap: '3', alignItems: 'center' })}>
          <span className={css({ color: 'error', fontSize: 'sm' })}>Failed to fetch data</span>
          <Button tone="secondary" onClick={() => panel.send({ type: 'panel.retried' })}>
            Retry
          </Button>
        </div>
      ) : data ? (
        <>
          <Summary summary={data.summary} />
          <Carousel panel={panel} />
          <Forecast summary={data.summary} levels={data.levels} />
        </>
      ) : null}

      <nav
        aria-label="Account"
        className={css({ display: 'flex', gap: '2', borderTop: '1px solid {colors.border}', pt: '3' })}
      >
        <Link
          href={routes.myAccount.href({})}
          onClick={close}
          className={css({
            flex: 1,
            textAlign: 'center',
            py: '2',
            borderRadius: 'md',
            border: '1px solid {colors.border}',
            fontSize: 'sm',
            fontWeight: 'semibold',
            _hover: { bg: 'bg.muted' },
          })}
        >
          Settings
        </Link>
        <Button
          tone="secondary"
          width="full"
          className={css({ flex: 1 })}
          onClick={() => session.send({ type: 'logout.requested' })}
        >
          Logout
        </Button>
      </nav>
    </section>,
    document.body,
  );
}

function Summary({ summary }: { summary: SellerLevelSummary }) {
  return (
    <section
      aria-label="This quarter"
      className={css({ display: 'grid', gap: '2', bg: 'brand.50', borderRadius: 'md', p: '3' })}
    >
      <p className={css({ fontSize: 'lg', fontWeight: 'bold' })}>{summary.level}</p>
      <dl
        className={css({
          display: 'grid',
          gridTemplateColumns: 'auto 1fr',
          columnGap: '3',
          rowGap: '1',
          fontSize: 'sm',
        })}
      >
        <dt className={css({ color: 'fg.muted' })}>Quarter</dt>
        <dd>{summary.quarter}</dd>
        <dt className={css({ color: 'fg.muted' })}>Days left</dt>
        <dd>{summary.days_left}</dd>
        <dt className={css({ color: 'fg.muted' })}>GTV so far</dt>
        <dd>{gbp(summary.gtv)}</dd>
        <dt className={css({ color: 'fg.muted' })}>Required to maintain</dt>
        <dd>{summary.required_to_maintain > 0 ? gbp(summary.required_to_maintain) : 'Reached'}</dd>
      </dl>
    </section>
  );
}

/** The three levels, one at a time, opening at the current one. */
function Carousel({ panel }: { panel: PanelRef }) {
  const levels = useSelector(panel, (s) => s.context.data?.levels ?? []);
  const index = useSelector(panel, (s) => s.context.index);
  const canPrevious = useSelector(panel, (s) => s.can({ type: 'level.previous' }));
  const canNext = useSelector(panel, (s) => s.can({ type: 'level.next' }));
  const level = levels[index];
  if (!level) return null;
  return (
    <section aria-roledescription="carousel" aria-label="Seller levels" className={css({ display: 'grid', gap: '2' })}>
      <div className={css({ display: 'flex', alignItems: 'center', gap: '2' })}>
        <button
          type="button"
          aria-label="Previous level"
          disabled={!canPrevious}
          onClick={() => panel.send({ type: 'level.previous' })}
          className={arrow}
        >
          <ChevronLeftIcon />
        </button>
        <LevelCard level={level} position={`${index + 1} of ${levels.length}`} />
        <button
          type="button"
          aria-label="Next level"
          disabled={!canNext}
          onClick={() => panel.send({ type: 'level.next' })}
          className={arrow}
        >
          <ChevronRightIcon />
        </button>
      </div>
      <div aria-hidden="true" className={css({ display: 'flex', justifyContent: 'center', gap: '1' })}>
        {levels.map((l, i) => (
          <span
            key={l.level}
            className={cx(
              css({ width: '6px', height: '6px', borderRadius: 'pill', bg: 'bg.muted' }),
              i === index && css({ bg: 'accent' }),
            )}
          />
        ))}
      </div>
    </section>
  );
}

const arrow = css({
  display: 'inline-grid',
  placeItems: 'center',
  width: '32px',
  height: '32px',
  flexShrink: 0,
  borderRadius: 'pill',
  border: '1px solid {colors.border}',
  cursor: 'pointer',
  _disabled: { opacity: 0.4, cursor: 'not-allowed' },
});

function LevelCard({ level, position }: { level: SellerLevel; position: string }) {
  const active = level.is_active === 1;
  return (
    <article
      aria-roledescription="slide"
      aria-label={`${level.name}, ${position}${active ? ', your current level' : ''}`}
      aria-current={active ? 'true' : undefined}
      className={cx(
        css({
          flex: 1,
          minWidth: 0,
          border: '1px solid {colors.border}',
          borderRadius: 'md',
          p: '3',
          display: 'grid',
          gap: '2',
        }),
        active && css({ borderColor: 'accent', borderWidth: '2px' }),
      )}
    >
      <div className={css({ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '2' })}>
        <h3 className={css({ fontWeight: 'bold' })}>{level.name}</h3>
        {active ? (
          <span
            className={css({
              fontSize: '11px',
              fontWeight: 'bold',
              color: 'white',
              bg: 'accent',
              px: '2',
              borderRadius: 'pill',
            })}
          >
            Active
          </span>
        ) : null}
      </div>
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>Quarterly GTV from {gbp(level.quarterly_gtv)}</p>
      <ul className={css({ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: '1', fontSize: 'sm' })}>
        {level.benefits.map((b) => (
          <li
            key={b.name}
            className={cx(
              css({ display: 'flex', gap: '2', alignItems: 'center' }),
              b.available === 0 && css({ color: 'fg.muted', textDecoration: 'line-through' }),
            )}
          >
            {b.available === 1 ? (
              <CheckIcon className={css({ color: 'success', flexShrink: 0 })} />
            ) : (
              <CloseIcon className={css({ flexShrink: 0 })} />
            )}
            <span>
              {b.name}
              <span className={css({ srOnly: true })}>{b.available === 1 ? ' (available)' : ' (not available)'}</span>
            </span>
          </li>
        ))}
      </ul>
    </article>
  );
}

/** The forecast (beyond the spec): this quarter at its pace so far, against each threshold. */
function Forecast({ summary, levels }: { summary: SellerLevelSummary; levels: SellerLevel[] }) {
  const { forecast } = summary;
  return (
    <section aria-label="Forecast" className={css({ display: 'grid', gap: '2', fontSize: 'sm' })}>
      <h3 className={css({ fontWeight: 'bold' })}>Forecast</h3>
      <p>
        At this quarter's pace: {gbp(forecast.projected_gtv)} by the end of {summary.quarter} (Level{' '}
        {forecast.projected_level}).
      </p>
      <ul className={css({ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: '1' })}>
        {levels.map((l) => {
          const short = l.quarterly_gtv - forecast.projected_gtv;
          return (
            <li key={l.level} className={css({ display: 'flex', justifyContent: 'space-between', gap: '2' })}>
              <span>
                {l.name} ({gbp(l.quarterly_gtv)})
              </span>
              <span className={css({ color: short <= 0 ? 'success' : 'fg.muted' })}>
                {short <= 0 ? 'On pace' : `${gbp(short)} short at this pace`}
              </span>
            </li>
          );
        })}
      </ul>
      <p className={css({ fontWeight: 'medium' })}>
        {forecast.next_level !== null && forecast.required_for_next_level !== null
          ? `${gbp(forecast.required_for_next_level)} more this quarter reaches Level ${forecast.next_level}.`
          : 'You are at the top level.'}{' '}
        {summary.required_to_maintain > 0
          ? `${gbp(summary.required_to_maintain)} more keeps ${summary.level}.`
          : `You have reached what keeps ${summary.level}.`}
      </p>
    </section>
  );
}
