/**
 * Device detail → sub-devices (gateways only): the sensors attached to this gateway, which it
 * speaks for over ThingsBoard's gateway topics, with their state; each opens its own page.
 */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Link from '@arco-design/web-react/es/Link';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import { useTranslation } from 'react-i18next';
import { deviceDetailPath } from '../../../server/contract/console-paths.ts';
import { deviceRoutes, type Device } from '../../../server/contract/device.ts';
import { ALIAS_MAX } from '../../../server/contract/validation.ts';
import { EnumTag } from '../../components/EnumTag.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { navigateGuarded } from '../../lib/navigation.ts';
import { useList } from '../../lib/use-list.ts';
import type { DeviceTabProps } from './deviceTab.ts';
import { deviceStateColors } from './deviceStyle.ts';

export function SubDeviceTab({ device }: DeviceTabProps): JSX.Element {
  const { t } = useTranslation(['device', 'table']);
  const list = useList(deviceRoutes.list, { scope: { gatewayId: device.id }, syncUrl: false });

  const columns: ColumnProps<Device>[] = [
    {
      title: t('fields.name'),
      dataIndex: 'name',
      sorter: true,
      render: (_: unknown, row) => (
        <span className="ec-device-name">
          <Link
            href={deviceDetailPath(row.id)}
            onClick={(e) => {
              e.preventDefault();
              void navigateGuarded(deviceDetailPath(row.id));
            }}
            data-testid={`sub-device-open-${row.name}`}
          >
            {row.name}
          </Link>
          {row.alias ? <span className="ec-device-name__alias">{row.alias}</span> : null}
        </span>
      ),
    },
    { title: t('fields.product'), dataIndex: 'productName' },
    { title: t('fields.addressCode'), dataIndex: 'addressCode', width: 130, render: (v: string | null) => v ?? '—' },
    {
      title: t('fields.state'),
      dataIndex: 'deviceState',
      width: 110,
      render: (v: Device['deviceState'], row) => <EnumTag ns="device" group="state" value={v} colors={deviceStateColors} testId={`sub-device-state-${row.name}`} />,
    },
    { title: t('fields.lastOnlineTime'), dataIndex: 'lastOnlineTime', width: 170, render: (v: number | null) => (v ? formatDateTime(v) : '—') },
  ];

  return (
    <section data-testid="sub-device-tab">
      <ResourceTable<Device, typeof list.filters>
        testId="sub-device"
        list={list}
        rowKey="id"
        columns={columns}
        scrollX={760}
        emptyText={t('subDevices.empty')}
        filters={
          <Form.Item field="name" label={t('fields.name')}>
            <Input placeholder={t('filters.namePlaceholder')} maxLength={ALIAS_MAX} allowClear data-testid="sub-device-filter-name" />
          </Form.Item>
        }
      />
    </section>
  );
}
