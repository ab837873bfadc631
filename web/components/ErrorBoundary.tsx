/**
 * Catches a page that fails to render or whose chunk fails to download (typically after an
 * upgrade replaced the hashed files) and offers a reload instead of a blank screen.
 */
import { Component, type ErrorInfo, type JSX, type ReactNode } from 'react';
import Button from '@arco-design/web-react/es/Button';
import IconExclamationCircle from '@arco-design/web-react/icon/react-icon/IconExclamationCircle';
import { i18n } from '../i18n/i18n.ts';
import { StatusPanel } from './StatusPanel.tsx';

interface Props {
  children: ReactNode;
}

interface State {
  failed: boolean;
}

export class ErrorBoundary extends Component<Props, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('page failed', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.failed) return this.props.children;
    return <LoadFailed />;
  }
}

function LoadFailed(): JSX.Element {
  return (
    <StatusPanel
      testId="page-load-failed"
      icon={<IconExclamationCircle />}
      title={i18n.t('exception:loadFailed')}
      actions={
        <Button type="primary" onClick={() => window.location.reload()}>
          {i18n.t('exception:reload')}
        </Button>
      }
    />
  );
}
