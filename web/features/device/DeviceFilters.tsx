/** The filter fields of the device list: name or alias, state, type, product, organization, favourites only. */
import type { JSX } from 'react';
import Checkbox from '@arco-design/web-react/es/Checkbox';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Select from '@arco-design/web-react/es/Select';
import { useTranslation } from 'react-i18next';
import { deviceStates } from '../../../server/contract/device.ts';
import { deviceTypes } from '../../../server/contract/product.ts';
import { ALIAS_MAX } from '../../../server/contract/validation.ts';
import { useEnumLabel } from '../../components/EnumTag.tsx';
import { OrganizationTreeSelect } from '../organization/OrganizationTreeSelect.tsx';
import { useProductOptions } from './useDeviceOptions.ts';

export function DeviceFilters(): JSX.Element {
  const { t } = useTranslation(['device', 'table']);
  const products = useProductOptions();
  const stateLabel = useEnumLabel('device', 'state');
  const typeLabel = useEnumLabel('product', 'deviceType');
  return (
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
