/** The columns of the device list: favourite, name and alias, state, type, product, organization, public switch, times, row actions. */
import { useMemo, type JSX, type ReactNode } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Link from '@arco-design/web-react/es/Link';
import Space from '@arco-design/web-react/es/Space';
import Switch from '@arco-design/web-react/es/Switch';
import Tooltip from '@arco-design/web-react/es/Tooltip';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import IconDelete from '@arco-design/web-react/icon/react-icon/IconDelete';
import IconEdit from '@arco-design/web-react/icon/react-icon/IconEdit';
import IconEye from '@arco-design/web-react/icon/react-icon/IconEye';
import IconLocation from '@arco-design/web-react/icon/react-icon/IconLocation';
import { useTranslation } from 'react-i18next';
import type { Device } from '../../../server/contract/device.ts';
import { deviceDetailPath } from '../../../server/contract/console-paths.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { EnumTag } from '../../components/EnumTag.tsx';
import { Permitted } from '../../components/Permitted.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { usePermission } from '../../stores/permissions.ts';
import { deleteDevices, setPublic } from './deviceApi.ts';
import { deviceStateColors, deviceTypeColors } from './deviceStyle.ts';
import { FavouriteStar } from './FavouriteStar.tsx';

export function useDeviceColumns(opts: {
  /** The list's reload, after a favourite, public or delete change. */
  refresh: () => Promise<void>;
  onOpen: (device: Device) => void;
  onEdit: (device: Device) => void;
  onLocate: (device: Device) => void;
}): ColumnProps<Device>[] {
  const { refresh: listRefresh, onOpen, onEdit, onLocate } = opts;
  const { t } = useTranslation(['device', 'table']);
  const canUpdate = usePermission('device:update');
  const refresh = (): void => void listRefresh();

  const togglePublic = async (device: Device, isPublic: boolean): Promise<void> => {
    try {
      await setPublic(device.id, isPublic);
      refresh();
    } catch {
      // the client showed why
    }
  };

  return useMemo<ColumnProps<Device>[]>(
    () => [
      {
        title: <span className="ec-sr-only">{t('favourite.column')}</span>,
        key: 'isCollect',
        width: 44,
        render: (_: unknown, row: Device) => <FavouriteStar device={row} onChange={refresh} />,
      },
      {
        title: t('fields.name'),
        dataIndex: 'name',
        sorter: true,
        width: 160,
        render: (_: unknown, row: Device) => (
          <div className="ec-device-name">
            <Link
              href={deviceDetailPath(row.id)}
              onClick={(e) => {
                e.preventDefault();
                onOpen(row);
              }}
              data-testid={`device-open-${row.name}`}
            >
              {row.name}
            </Link>
            {row.alias ? <span className="ec-device-name__alias">{row.alias}</span> : null}
          </div>
        ),
      },
      {
        title: t('fields.state'),
        dataIndex: 'deviceState',
        sorter: true,
        width: 92,
        render: (value: Device['deviceState'], row: Device) => (
          <EnumTag ns="device" group="state" value={value} colors={deviceStateColors} testId={`device-state-${row.name}`} />
        ),
      },
      {
        title: t('fields.deviceType'),
        dataIndex: 'deviceType',
        sorter: true,
        width: 104,
        render: (value: Device['deviceType']) => <EnumTag ns="product" group="deviceType" value={value} colors={deviceTypeColors} />,
      },
      { title: t('fields.product'), dataIndex: 'productName', width: 104, ellipsis: true },
      { title: t('fields.organization'), dataIndex: 'organizationName', width: 100, ellipsis: true, render: (v: string | null) => v ?? '—' },
      {
        title: t('fields.isPublic'),
        key: 'isPublic',
        width: 64,
        render: (_: unknown, row: Device) => (
          <Switch
            size="small"
            checked={row.isPublic}
            disabled={!canUpdate}
            aria-label={t('publicOf', { name: row.name })}
            onChange={(v: boolean) => void togglePublic(row, v)}
            data-testid={`device-public-${row.name}`}
          />
        ),
      },
      {
        title: t('fields.lastOnlineTime'),
        dataIndex: 'lastOnlineTime',
        sorter: true,
        width: 100,
        render: (v: number | null) => (v ? formatDateTime(v) : '—'),
      },
      { title: t('fields.createdTime'), dataIndex: 'createdTime', sorter: true, width: 100, render: (v: number) => formatDateTime(v) },
      {
        title: t('table:actions'),
        key: 'actions',
        fixed: 'right',
        width: 136,
        render: (_: unknown, row: Device) => (
          <Space size={0}>
            <RowAction label={t('table:view')} icon={<IconEye />} onClick={() => onOpen(row)} testId={`device-view-${row.name}`} />
            <Permitted perm="device:update">
              <RowAction label={t('table:edit')} icon={<IconEdit />} onClick={() => onEdit(row)} testId={`device-edit-${row.name}`} />
              <RowAction label={t('location.button')} icon={<IconLocation />} onClick={() => onLocate(row)} testId={`device-location-${row.name}`} />
            </Permitted>
            <Permitted perm="device:delete">
            <ConfirmButton
              testId={`device-delete-${row.name}`}
              icon={<IconDelete />}
              aria-label={t('table:delete')}
              title={t('table:deleteConfirm', { name: row.name })}
              onConfirm={async () => {
                await deleteDevices([row.id]);
                await listRefresh();
              }}
            />
            </Permitted>
          </Space>
        ),
      },
    ],
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- the page's callbacks are fresh each render but only navigate or set its state; the list's refresh and the labels are what matter.
    [t, listRefresh, canUpdate],
  );
}

/** An icon button of the actions column: icons keep the sticky column narrow; the label is its name and tooltip. */
function RowAction({ label, icon, onClick, testId }: { label: string; icon: ReactNode; onClick: () => void; testId: string }): JSX.Element {
  return (
    <Tooltip content={label}>
      <Button type="text" size="small" icon={icon} aria-label={label} onClick={onClick} data-testid={testId} />
    </Tooltip>
  );
}
