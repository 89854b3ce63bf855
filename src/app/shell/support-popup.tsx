import { useEffect, useRef } from 'react';
import { css, cx } from 'styled-system/css';
import { Button } from '../../ui/button';
import { SupportInfo } from './shell-actors';

const line = css({
  display: 'block',
  borderRadius: 'sm',
  bg: 'bg.muted',
  animation: 'pulse 1.4s ease-in-out infinite',
});

/** The support popup: title, sub title, phone, email and 'Got it'; a skeleton while its text loads. */
export default function SupportPopup() {
  const support = SupportInfo.useActorRef();
  const info = SupportInfo.useSelector((s) => (s.matches('shown') ? s.context.info : null));
  const failed = SupportInfo.useSelector((s) => s.matches('failed'));
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const opener = document.activeElement as HTMLElement | null;
    const el = dialog.current;
    if (el && !el.open) el.showModal();
    return () => opener?.focus();
  }, []);

  const close = () => support.send({ type: 'support.closed' });
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the backdrop click has Escape (the dialog's cancel) as its keyboard twin
    <dialog
      ref={dialog}
      aria-labelledby="support-title"
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
      // a click on the backdrop closes, as Escape does (onCancel) for keyboards
      onClick={(e) => {
        if (e.target === dialog.current) close();
      }}
      className={css({
        m: 'auto',
        width: 'min(380px, calc(100vw - 32px))',
        borderRadius: 'lg',
        p: '6',
        border: 'none',
        boxShadow: '0 20px 50px rgba(17, 24, 39, 0.25)',
        _backdrop: { bg: 'rgba(17, 24, 39, 0.45)' },
      })}
    >
      {info ? (
        <div className={css({ display: 'grid', gap: '3' })}>
          <h2 id="support-title" className={css({ fontSize: 'lg', fontWeight: 'bold' })}>
            {info.title}
          </h2>
          <p className={css({ color: 'fg.muted' })}>{info.sub_title}</p>
          <p>
            Phone: <a href={`tel:${info.phone.replace(/\s/g, '')}`}>{info.phone}</a>
          </p>
          <p>
            Email: <a href={`mailto:${info.email}`}>{info.email}</a>
          </p>
          <Button onClick={close}>Got it</Button>
        </div>
      ) : failed ? (
        <div role="alert" className={css({ display: 'grid', gap: '3' })}>
          <h2 id="support-title" className={css({ fontSize: 'lg', fontWeight: 'bold' })}>
            Support
          </h2>
          <p>Failed to fetch data</p>
          <div className={css({ display: 'flex', gap: '2' })}>
            <Button onClick={() => support.send({ type: 'retry' })}>Retry</Button>
            <Button tone="secondary" onClick={close}>
              Close
            </Button>
          </div>
        </div>
      ) : (
        <div aria-busy="true" className={css({ display: 'grid', gap: '3' })}>
          <h2 id="support-title" className={css({ srOnly: true })}>
            Loading support details
          </h2>
          <span className={cx(line, css({ height: '20px', width: '60%' }))} />
          <span className={cx(line, css({ height: '14px', width: '90%' }))} />
          <span className={cx(line, css({ height: '14px', width: '50%' }))} />
          <span className={cx(line, css({ height: '14px', width: '70%' }))} />
          <span className={cx(line, css({ height: '40px', width: '100%' }))} />
        </div>
      )}
    </dialog>
  );
}
