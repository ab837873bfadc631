/** A Modbus point's row actions: read now (polled points), write (writable points). */
import type { JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import IconDownload from '@arco-design/web-react/icon/react-icon/IconDownload';
import IconEdit from '@arco-design/web-react/icon/react-icon/IconEdit';
import { useTranslation } from 'react-i18next';
import type { ModbusPoint } from '../../../server/contract/modbus.ts';

export interface PointActionsProps {
  point: ModbusPoint;
  /** A read of this point is under way. */
  reading: boolean;
  onRead: (identifiers: string[]) => void;
  onWrite: (point: ModbusPoint) => void;
}

export function PointActions({ point, reading, onRead, onWrite }: PointActionsProps): JSX.Element {
  const { t } = useTranslation('modbus');
  return (
    <span className="ec-modbus-actions">
      {point.polled ? (
        <Button
          type="text"
          size="small"
          icon={<IconDownload />}
          loading={reading}
          onClick={() => onRead([point.identifier])}
          aria-label={t('points.readAria', { name: point.name })}
          data-testid={`modbus-read-${point.identifier}`}
        >
          {t('points.read')}
        </Button>
      ) : null}
      {point.writable ? (
        <Button
          type="text"
          size="small"
          icon={<IconEdit />}
          onClick={() => onWrite(point)}
          aria-label={t('points.writeAria', { name: point.name })}
          data-testid={`modbus-write-${point.identifier}`}
        >
          {t('points.write')}
        </Button>
      ) : null}
    </span>
  );
}
