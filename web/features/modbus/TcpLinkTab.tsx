/**
 * Device detail → TCP link (TCP devices): the link (TcpLinkPanel.tsx) and, for Modbus devices,
 * the live value of every polled point with "read now" per point and for all, and "write" for
 * writable points (ModbusWriteModal.tsx). Both refresh from the server on their own: the link every
 * few seconds, the points at the product's polling period (bounded so a slow period still updates
 * and a fast one does not flood the console).
 */
import { useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Empty from '@arco-design/web-react/es/Empty';
import Spin from '@arco-design/web-react/es/Spin';
import { useTranslation } from 'react-i18next';
import type { DeviceTabProps } from '../device/deviceTab.ts';
import { fetchLink, fetchPoints } from './modbusApi.ts';
import { pointRefreshMs } from './modbusFormat.ts';
import { isNotModbus, PointsSection } from './PointsSection.tsx';
import { TcpLinkPanel } from './TcpLinkPanel.tsx';
import { usePolled } from './usePolled.ts';
import './modbus.css';

const LINK_REFRESH_MS = 3_000;

export function TcpLinkTab({ device }: DeviceTabProps): JSX.Element {
  const { t } = useTranslation('modbus');
  const link = usePolled(() => fetchLink(device.id), LINK_REFRESH_MS);
  const [refreshMs, setRefreshMs] = useState(LINK_REFRESH_MS);
  const points = usePolled(
    async () => {
      const list = await fetchPoints(device.id);
      setRefreshMs(pointRefreshMs(list.pollIntervalMs));
      return list;
    },
    refreshMs,
    isNotModbus,
  );

  if (link.loading && !link.data) return <Spin className="ec-modbus-spin" />;
  return (
    <section className="ec-modbus" data-testid="tcp-link-tab" aria-label={t('tab')}>
      {link.data ? (
        <TcpLinkPanel link={link.data} onRefresh={() => void link.reload()} />
      ) : (
        <Empty
          description={
            <span className="ec-modbus-retry">
              {t('link.loadFailed')}
              <Button size="small" onClick={() => void link.reload()} data-testid="tcp-link-retry">
                {t('link.retry')}
              </Button>
            </span>
          }
        />
      )}
      <PointsSection deviceId={device.id} deviceProfileId={device.deviceProfileId} points={points} />
    </section>
  );
}
