import { css } from 'styled-system/css';
import { Button } from '../../ui/button';
import { Modal } from '../../ui/modal';
import { Loading, Skeleton } from '../../ui/skeleton';
import { SupportInfo } from './shell-actors';

/** The support popup: title, sub title, phone, email and 'Got it'; a skeleton while its text loads. */
export default function SupportPopup() {
  const support = SupportInfo.useActorRef();
  const info = SupportInfo.useSelector((s) => (s.matches('shown') ? s.context.info : null));
  const failed = SupportInfo.useSelector((s) => s.matches('failed'));
  const close = () => support.send({ type: 'support.closed' });

  return (
    <Modal
      open
      closeOnOutsideClick
      title={info?.title ?? 'Support'}
      onClose={close}
      footer={
        info ? (
          <Button onClick={close}>Got it</Button>
        ) : failed ? (
          <Button onClick={() => support.send({ type: 'retry' })}>Retry</Button>
        ) : null
      }
    >
      {info ? (
        <div className={css({ display: 'grid', gap: '3' })}>
          <p className={css({ color: 'fg.muted' })}>{info.sub_title}</p>
          <p>
            Phone: <a href={`tel:${info.phone.replace(/\s/g, '')}`}>{info.phone}</a>
          </p>
          <p>
            Email: <a href={`mailto:${info.email}`}>{info.email}</a>
          </p>
        </div>
      ) : failed ? (
        <p role="alert" className={css({ color: 'error' })}>
          Failed to fetch data
        </p>
      ) : (
        <Loading label="Loading support details">
          <Skeleton width="90%" height="14px" />
          <Skeleton width="50%" height="14px" />
          <Skeleton width="70%" height="14px" />
        </Loading>
      )}
    </Modal>
  );
}
