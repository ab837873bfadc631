/**
 * Device list (`consolePaths.device`): filters (name or alias, state, type,
 * product, organization and its descendants, favourites only), sorting, paging, row selection with
 * a confirmed bulk delete, favourite star and public switch per row; create and edit in a drawer,
 * position in a modal, CSV import and batch generation in the import wizard (loaded on first use).
 */
import { lazy, Suspense, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import IconImport from '@arco-design/web-react/icon/react-icon/IconImport';
import IconPlus from '@arco-design/web-react/icon/react-icon/IconPlus';
import IconThunderbolt from '@arco-design/web-react/icon/react-icon/IconThunderbolt';
import { useTranslation } from 'react-i18next';
import { deviceRoutes, type Device } from '../../../server/contract/device.ts';
import { deviceDetailPath } from '../../../server/contract/console-paths.ts';
import { Permitted } from '../../components/Permitted.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { navigateGuarded } from '../../lib/navigation.ts';
import { useList } from '../../lib/use-list.ts';
import { usePermission } from '../../stores/permissions.ts';
import { deleteDevices } from './deviceApi.ts';
import { DeviceFilters } from './DeviceFilters.tsx';
import { DeviceFormDrawer } from './DeviceFormDrawer.tsx';
import type { ImportTab } from './import/DeviceImportModal.tsx';
import { LocationModal } from './LocationModal.tsx';
import { useDeviceColumns } from './useDeviceColumns.tsx';
import './device.css';

const DeviceImportModal = lazy(() => import('./import/DeviceImportModal.tsx').then((m) => ({ default: m.DeviceImportModal })));

export function DeviceListPage(): JSX.Element {
  const { t } = useTranslation(['device', 'table']);
  const canDelete = usePermission('device:delete');
  // The empty list points only at buttons the user has: a customer is told who adds devices.
  const canCreate = usePermission('device:create');
  const canImport = usePermission('device:import');
  const canAdd = canCreate || canImport;
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
  const [drawer, setDrawer] = useState<{ device: Device | null } | null>(null);
  const [locating, setLocating] = useState<Device | null>(null);
  // `?import=csv|generate` (the workbench's quick entry) opens the import wizard on arrival.
  const [importTab, setImportTab] = useState<ImportTab | null>(() => {
    const wanted = new URLSearchParams(window.location.search).get('import');
    return wanted === 'csv' || wanted === 'generate' ? wanted : null;
  });
  const refresh = (): void => void list.refresh();

  const open = (device: Device): void => void navigateGuarded(deviceDetailPath(device.id));

  const columns = useDeviceColumns({ refresh: list.refresh, onOpen: open, onEdit: (device) => setDrawer({ device }), onLocate: setLocating });

  return (
    <div className="ec-page" data-testid="device-page">
      <ResourceTable<Device, typeof list.filters>
        testId="device"
        list={list}
        rowKey="id"
        columns={columns}
        scrollX={1600}
        emptyText={canAdd ? t('empty') : t('emptyReadOnly')}
        onBulkDelete={canDelete ? (ids) => deleteDevices(ids) : undefined}
        filters={<DeviceFilters />}
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
