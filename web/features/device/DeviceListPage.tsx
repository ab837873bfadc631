/**
 * Device list (`consolePaths.device`): filters (name or alias, state, type,
 * product, organization and its descendants, favourites only), sorting, paging, row selection with
 * a confirmed bulk delete, favourite star and public switch per row; create and edit in a drawer,
 * position in a modal, CSV import and batch generation in the import wizard (loaded on first use).
 */
import { lazy, Suspense, useMemo, useState, type JSX, type ReactNode } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Checkbox from '@arco-design/web-react/es/Checkbox';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Link from '@arco-design/web-react/es/Link';
import Select from '@arco-design/web-react/es/Select';
import Space from '@arco-design/web-react/es/Space';
import Switch from '@arco-design/web-react/es/Switch';
import Tooltip from '@arco-design/web-react/es/Tooltip';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import IconDelete from '@arco-design/web-react/icon/react-icon/IconDelete';
import IconEdit from '@arco-design/web-react/icon/react-icon/IconEdit';
import IconEye from '@arco-design/web-react/icon/react-icon/IconEye';
import IconImport from '@arco-design/web-react/icon/react-icon/IconImport';
import IconLocation from '@arco-design/web-react/icon/react-icon/IconLocation';
import IconPlus from '@arco-design/web-react/icon/react-icon/IconPlus';
import IconThunderbolt from '@arco-design/web-react/icon/react-icon/IconThunderbolt';
import { useTranslation } from 'react-i18next';
import { deviceRoutes, deviceStates, type Device } from '../../../server/contract/device.ts';
import { deviceTypes } from '../../../server/contract/product.ts';
import { ALIAS_MAX } from '../../../server/contract/validation.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { EnumTag, useEnumLabel } from '../../components/EnumTag.tsx';
import { OrganizationTreeSelect } from '../organization/OrganizationTreeSelect.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { navigateGuarded } from '../../lib/navigation.ts';
import { useList } from '../../lib/use-list.ts';
import { deleteDevices, setPublic } from './deviceApi.ts';
import { DeviceFormDrawer } from './DeviceFormDrawer.tsx';
import { deviceDetailPath } from '../../../server/contract/console-paths.ts';
import { deviceStateColors, deviceTypeColors } from './deviceStyle.ts';
import { FavouriteStar } from './FavouriteStar.tsx';
import { LocationModal } from './LocationModal.tsx';
import { useProductOptions } from './useDeviceOptions.ts';
import type { ImportTab } from './import/DeviceImportModal.tsx';
import { Permitted } from '../../components/Permitted.tsx';
import { usePermission } from '../../stores/permissions.ts';
import './device.css';

const DeviceImportModal = lazy(() => import('./import/DeviceImportModal.tsx').then((m) => ({ default: m.DeviceImportModal })));

export function DeviceListPage(): JSX.Element {
  const { t } = useTranslation(['device', 'table']);
  const canUpdate = usePermission('device:update');
  const canDelete = usePermission('device:delete');
  const list = useList(deviceRoutes.list, {
    urlFilters: {
      name: 'string',
      deviceState: 'string',
      deviceType: 'string',
      deviceProfileId: 'string',
      organizationId: 'string',
      isCollect: 'boolean',
    },
  });
  const products = useProductOptions();
  const stateLabel = useEnumLabel('device', 'state');
  const typeLabel = useEnumLabel('product', 'deviceType');
  const [drawer, setDrawer] = useState<{ device: Device | null } | null>(null);
  const [locating, setLocating] = useState<Device | null>(null);
  // `?import=csv|generate` (the workbench's quick entry) opens the import wizard on arrival.
  const [importTab, setImportTab] = useState<ImportTab | null>(() => {
    const wanted = new URLSearchParams(window.location.search).get('import');
    return wanted === 'csv' || wanted === 'generate' ? wanted : null;
  });
  const refresh = (): void => void list.refresh();

  const togglePublic = async (device: Device, isPublic: boolean): Promise<void> => {
    try {
      await setPublic(device.id, isPublic);
      refresh();
    } catch {
      // the client showed why
    }
  };

  const open = (device: Device): void => void navigateGuarded(deviceDetailPath(device.id));

  const columns = useMemo<ColumnProps<Device>[]>(
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
                open(row);
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
            <RowAction label={t('table:view')} icon={<IconEye />} onClick={() => open(row)} testId={`device-view-${row.name}`} />
            <Permitted perm="device:update">
              <RowAction label={t('table:edit')} icon={<IconEdit />} onClick={() => setDrawer({ device: row })} testId={`device-edit-${row.name}`} />
              <RowAction label={t('location.button')} icon={<IconLocation />} onClick={() => setLocating(row)} testId={`device-location-${row.name}`} />
            </Permitted>
            <Permitted perm="device:delete">
            <ConfirmButton
              testId={`device-delete-${row.name}`}
              icon={<IconDelete />}
              aria-label={t('table:delete')}
              title={t('table:deleteConfirm', { name: row.name })}
              onConfirm={async () => {
                await deleteDevices([row.id]);
                await list.refresh();
              }}
            />
            </Permitted>
          </Space>
        ),
      },
    ],
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- `list` is a fresh object each render; its refresh and the labels are what matter.
    [t, list.refresh, canUpdate],
  );

  return (
    <div className="ec-page" data-testid="device-page">
      <ResourceTable<Device, typeof list.filters>
        testId="device"
        list={list}
        rowKey="id"
        columns={columns}
        scrollX={1600}
        emptyText={t('empty')}
        onBulkDelete={canDelete ? (ids) => deleteDevices(ids) : undefined}
        filters={
          <>
            <Form.Item field="name" label={t('fields.name')}>
              <Input placeholder={t('filters.namePlaceholder')} maxLength={ALIAS_MAX} allowClear data-testid="device-filter-name" />
            </Form.Item>
            <Form.Item field="deviceState" label={t('fields.state')}>
              <Select
                placeholder={t('table:all')}
                allowClear
                style={{ width: 140 }}
                options={deviceStates.map((s) => ({ label: stateLabel(s), value: s }))}
                data-testid="device-filter-state"
              />
            </Form.Item>
            <Form.Item field="deviceType" label={t('fields.deviceType')}>
              <Select
                placeholder={t('table:all')}
                allowClear
                style={{ width: 160 }}
                options={deviceTypes.map((v) => ({ label: typeLabel(v), value: v }))}
                data-testid="device-filter-type"
              />
            </Form.Item>
            <Form.Item field="deviceProfileId" label={t('fields.product')}>
              <Select
                placeholder={t('table:all')}
                allowClear
                showSearch
                style={{ width: 180 }}
                loading={products.loading}
                options={products.items.map((p) => ({ label: p.name, value: p.id }))}
                data-testid="device-filter-product"
              />
            </Form.Item>
            <Form.Item field="organizationId" label={t('fields.organization')}>
              <OrganizationTreeSelect testId="device-filter-organization" style={{ width: 180 }} />
            </Form.Item>
            <Form.Item field="isCollect">
              <FavouritesOnly label={t('filters.favouritesOnly')} />
            </Form.Item>
          </>
        }
        toolbar={
          <>
            <Permitted perm="device:create">
              <Button type="primary" icon={<IconPlus />} onClick={() => setDrawer({ device: null })} data-testid="device-create">
                {t('actions.create')}
              </Button>
            </Permitted>
            <Permitted perm="device:import">
              <Button icon={<IconImport />} onClick={() => setImportTab('csv')} data-testid="device-import">
                {t('actions.import')}
              </Button>
              <Button icon={<IconThunderbolt />} onClick={() => setImportTab('generate')} data-testid="device-batch">
                {t('actions.batch')}
              </Button>
            </Permitted>
          </>
        }
      />
      <DeviceFormDrawer visible={!!drawer} device={drawer?.device ?? null} onClose={() => setDrawer(null)} onSaved={refresh} />
      <LocationModal device={locating} onClose={() => setLocating(null)} onSaved={refresh} />
      {importTab ? (
        <Suspense fallback={null}>
          <DeviceImportModal initialTab={importTab} onClose={() => setImportTab(null)} onCreated={refresh} />
        </Suspense>
      ) : null}
    </div>
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

/** "Favourites only": checked filters on favourites, unchecked sends no filter (not "non-favourites"). */
function FavouritesOnly({ value, onChange, label }: { value?: boolean; onChange?: (v: true | undefined) => void; label: string }): JSX.Element {
  return (
    <Checkbox checked={value === true} onChange={(checked: boolean) => onChange?.(checked ? true : undefined)} data-testid="device-filter-favourites">
      {label}
    </Checkbox>
  );
}
