/**
 * The outcome at the top of a wizard's last step. Arco's Result is avoided on purpose: it carries
 * the 403/404/500 illustrations (≈ 30 KB gzip) into the chunk even when only a status icon shows.
 */
import type { JSX, ReactNode } from 'react';
import IconCheckCircleFill from '@arco-design/web-react/icon/react-icon/IconCheckCircleFill';
import IconCloseCircleFill from '@arco-design/web-react/icon/react-icon/IconCloseCircleFill';
import IconExclamationCircleFill from '@arco-design/web-react/icon/react-icon/IconExclamationCircleFill';

export function ResultSummary(props: { status: 'success' | 'warning' | 'error'; title: ReactNode; subTitle?: ReactNode; extra?: ReactNode }): JSX.Element {
  const icon =
    props.status === 'success' ? <IconCheckCircleFill /> : props.status === 'warning' ? <IconExclamationCircleFill /> : <IconCloseCircleFill />;
  return (
    <div className={`ec-result ec-result--${props.status}`} role="status">
      <div className="ec-result__icon" aria-hidden="true">
        {icon}
      </div>
      <div className="ec-result__title">{props.title}</div>
      {props.subTitle ? <div className="ec-result__sub">{props.subTitle}</div> : null}
      {props.extra ? <div className="ec-result__extra">{props.extra}</div> : null}
    </div>
  );
}
