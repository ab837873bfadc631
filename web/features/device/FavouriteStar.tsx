/** The favourite (collected) star of a device: a toggle button that says its state to screen readers. */
import { useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import IconStar from '@arco-design/web-react/icon/react-icon/IconStar';
import IconStarFill from '@arco-design/web-react/icon/react-icon/IconStarFill';
import { useTranslation } from 'react-i18next';
import type { Device } from '../../../server/contract/device.ts';
import { usePermission } from '../../stores/permissions.ts';
import { setCollect } from './deviceApi.ts';

export function FavouriteStar({ device, onChange }: { device: Device; onChange: (device: Device) => void }): JSX.Element {
  const { t } = useTranslation('device');
  const [busy, setBusy] = useState(false);
  // The favourite flag is part of the device (device:update): a read-only role sees it, unchangeable.
  const canChange = usePermission('device:update');
  const label = device.isCollect ? t('favourite.remove') : t('favourite.add');
  const toggle = async (): Promise<void> => {
    setBusy(true);
    try {
      onChange(await setCollect(device.id, !device.isCollect));
    } catch {
      // the client showed why
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button
      type="text"
      size="small"
      className={device.isCollect ? 'ec-star is-on' : 'ec-star'}
      icon={device.isCollect ? <IconStarFill /> : <IconStar />}
      aria-label={label}
      aria-pressed={device.isCollect}
      title={label}
      loading={busy}
      disabled={!canChange}
      onClick={() => void toggle()}
      data-testid={`device-favourite-${device.name}`}
    />
  );
}
