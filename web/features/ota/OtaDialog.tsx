/**
 * The product's firmware update dialog (spec: product detail, "firmware update"): upload a device
 * firmware, assign it to all of the product's devices or chosen ones, follow each device's
 * progress live, delete it, and set how many devices are notified a minute.
 */
import { useCallback, useEffect, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Message from '@arco-design/web-react/es/Message';
import Modal from '@arco-design/web-react/es/Modal';
import Table from '@arco-design/web-react/es/Table';
import { useTranslation } from 'react-i18next';
import type { OtaPackage } from '../../../server/contract/ota.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { formatBytes } from '../../components/file-check.ts';
import { DeviceSelect } from '../device/DeviceSelect.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { assignOtaPackage, deleteOtaPackage, listOtaPackages, loadOtaSettings, saveOtaSettings } from './otaApi.ts';
import { OtaProgressList } from './OtaProgressList.tsx';
import { OtaUploadForm } from './OtaUploadForm.tsx';
import './ota.css';

export interface OtaDialogProps {
  productId: string;
  visible: boolean;
  onClose: () => void;
}

function RateLimit(): JSX.Element {
  const { t } = useTranslation('ota');
  const [value, setValue] = useState<number | undefined>();
  useEffect(() => {
    void loadOtaSettings().then((s) => setValue(s.devicesPerMinute));
  }, []);
  return (
    <div className="ec-ota__rate">
      <span>{t('rateLimit')}</span>
      <InputNumber aria-label={t('rateLimit')} min={1} max={10_000} value={value} onChange={(v) => setValue(v)} style={{ width: 110 }} data-testid="ota-rate" />
      <Button
        size="small"
        disabled={!value}
        onClick={() => void saveOtaSettings({ devicesPerMinute: value! }).then(() => Message.success(t('rateSaved')))}
        data-testid="ota-rate-save"
      >
        {t('save')}
      </Button>
    </div>
  );
}

function AssignControls({ pkg, onAssigned }: { pkg: OtaPackage; onAssigned: () => void }): JSX.Element {
  const { t } = useTranslation('ota');
  const [chosen, setChosen] = useState<string[]>([]);
  const assign = async (deviceIds?: string[]): Promise<void> => {
    const { queued } = await assignOtaPackage(pkg.id, deviceIds ? { deviceIds } : {});
    Message.success(t('assigned', { count: queued }));
    setChosen([]);
    onAssigned();
  };
  return (
    <div className="ec-ota__assign">
      <ConfirmButton danger={false} type="primary" size="small" okText={t('assignAll')} title={t('assignAllConfirm', { title: pkg.title, version: pkg.version })} onConfirm={() => assign()} testId={`ota-assign-all-${pkg.id}`}>
        {t('assignAll')}
      </ConfirmButton>
      <label className="ec-ota__assign">
        {t('chooseDevices')}
        <DeviceSelect<string[]> multiple deviceProfileId={pkg.productId} value={chosen} onChange={setChosen} placeholder={t('chooseDevices')} testId={`ota-devices-${pkg.id}`} style={{ width: 260 }} />
      </label>
      <Button size="small" disabled={!chosen.length} onClick={() => void assign(chosen)} data-testid={`ota-assign-chosen-${pkg.id}`}>
        {t('assignChosen')}
      </Button>
    </div>
  );
}

export function OtaDialog({ productId, visible, onClose }: OtaDialogProps): JSX.Element {
  const { t } = useTranslation('ota');
  const [packages, setPackages] = useState<OtaPackage[] | null>(null);
  // The package whose assignment and device progress show under the list.
  const [open, setOpen] = useState<string | null>(null);
  const reload = useCallback(() => void listOtaPackages(productId).then(setPackages), [productId]);
  useEffect(() => {
    if (visible) reload();
  }, [visible, reload]);

  const remove = async (pkg: OtaPackage): Promise<void> => {
    try {
      await deleteOtaPackage(pkg.id, false);
    } catch (err) {
      if (!(err instanceof ApiError && err.key === 'error.ota.inProgress')) throw err;
      // Devices are still updating: the server says how many; deleting anyway abandons them.
      const force = await new Promise<boolean>((resolve) => Modal.confirm({ title: t('deleteAnyway'), content: err.message, onOk: () => resolve(true), onCancel: () => resolve(false) }));
      if (!force) return;
      await deleteOtaPackage(pkg.id, true);
    }
    Message.success(t('deleted'));
    reload();
  };

  return (
    <Modal visible={visible} title={t('title')} onCancel={onClose} footer={null} style={{ width: 960 }} unmountOnExit data-testid="ota-dialog">
      <OtaUploadForm productId={productId} onUploaded={reload} />
      <RateLimit />
      <Table<OtaPackage>
        rowKey="id"
        size="small"
        loading={packages === null}
        data={packages ?? []}
        pagination={false}
        noDataElement={<span>{t('empty')}</span>}
        data-testid="ota-packages"
        columns={[
          { title: t('field.title'), dataIndex: 'title' },
          { title: t('field.version'), dataIndex: 'version' },
          { title: t('column.size'), dataIndex: 'size', render: (s: number) => formatBytes(s) },
          { title: t('field.checksumAlgorithm'), dataIndex: 'checksumAlgorithm' },
          { title: t('field.checksum'), dataIndex: 'checksum', render: (c: string) => <code title={c}>{c.slice(0, 16)}…</code> },
          { title: t('column.devices'), render: (_: unknown, p) => t('deviceCounts', { assigned: p.assigned, inProgress: p.inProgress }) },
          {
            title: t('column.actions'),
            render: (_: unknown, p) => (
              <span className="ec-ota__actions">
                <Button size="small" type={open === p.id ? 'primary' : 'secondary'} onClick={() => setOpen(p.id)} data-testid={`ota-open-${p.id}`}>
                  {t('progress')}
                </Button>
                <ConfirmButton size="small" okText={t('delete')} title={t('deleteConfirm', { title: p.title, version: p.version })} onConfirm={() => remove(p)} testId={`ota-delete-${p.id}`}>
                  {t('delete')}
                </ConfirmButton>
              </span>
            ),
          },
        ]}
      />
      {open && packages?.some((p) => p.id === open) ? (
        <div className="ec-ota__detail">
          <AssignControls pkg={packages.find((p) => p.id === open)!} onAssigned={reload} />
          <OtaProgressList packageId={open} />
        </div>
      ) : null}
    </Modal>
  );
}
