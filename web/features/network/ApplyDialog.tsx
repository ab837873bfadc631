/**
 * The plan of an apply, shown before anything changes: each setting from → to, a warning when the
 * change moves the LAN address this browser came in over, and the rollback window.
 */
import { useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Modal from '@arco-design/web-react/es/Modal';
import Table from '@arco-design/web-react/es/Table';
import { useTranslation } from 'react-i18next';
import { CONFIRM_WITHIN, type NetworkApplierName, type NetworkApplyResult, type NetworkChange, type NetworkSettingsBody } from '../../../server/contract/network.ts';
import { FormError } from '../../components/FormError.tsx';
import { errorMessage } from '../../lib/error-text.ts';
import { applyNetwork } from './networkApi.ts';

export interface ApplyDialogProps {
  body: NetworkSettingsBody;
  changes: readonly NetworkChange[];
  applier: NetworkApplierName;
  /** The LAN address this browser uses that the change moves; null when the session is not cut. */
  cutHost: string | null;
  onApplied: (result: NetworkApplyResult) => void;
  onClose: () => void;
}

const shown = (v: unknown): string => (Array.isArray(v) ? v.join(', ') : v === null || v === '' ? '—' : String(v));

export function ApplyDialog({ body, changes, applier, cutHost, onApplied, onClose }: ApplyDialogProps): JSX.Element {
  const { t } = useTranslation('network');
  const [confirmWithinS, setConfirmWithinS] = useState<number>(CONFIRM_WITHIN.default);
  const [applying, setApplying] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const apply = async (): Promise<void> => {
    setApplying(true);
    setFailure(null);
    try {
      onApplied(await applyNetwork(body, confirmWithinS));
    } catch (err) {
      setFailure(errorMessage(err));
    } finally {
      setApplying(false);
    }
  };

  return (
    <Modal
      visible
      title={t('plan.title')}
      onCancel={onClose}
      style={{ width: 640 }}
      footer={
        <>
          <Button onClick={onClose}>{t('action.cancel')}</Button>
          <Button type="primary" status={cutHost ? 'warning' : 'default'} loading={applying} disabled={changes.length === 0} onClick={() => void apply()} data-testid="network-apply">
            {t('action.apply')}
          </Button>
        </>
      }
    >
      <div data-testid="network-plan">
        {changes.length === 0 ? (
          <Alert type="info" content={t('plan.none')} />
        ) : (
          <Table
            rowKey="path"
            size="small"
            pagination={false}
            data={changes as NetworkChange[]}
            columns={[
              { title: t('plan.path'), dataIndex: 'path' },
              { title: t('plan.from'), dataIndex: 'from', render: shown },
              { title: t('plan.to'), dataIndex: 'to', render: shown },
            ]}
          />
        )}
        {cutHost && <Alert type="warning" className="ec-network__notice" content={t('plan.sessionWarning', { host: cutHost })} data-testid="network-session-warning" />}
        {applier === 'file' && changes.length > 0 && <Alert type="info" className="ec-network__notice" content={t('plan.fileNote')} />}
        <div className="ec-network__notice">
          <label htmlFor="network-confirm-within">{t('plan.confirmWithin')} </label>
          <InputNumber
            id="network-confirm-within"
            min={CONFIRM_WITHIN.min}
            max={CONFIRM_WITHIN.max}
            precision={0}
            value={confirmWithinS}
            onChange={(v) => setConfirmWithinS(typeof v === 'number' ? v : CONFIRM_WITHIN.default)}
            style={{ width: 120 }}
            data-testid="network-confirm-within"
          />
        </div>
        <FormError message={failure} testId="network-apply-error" />
      </div>
    </Modal>
  );
}
