/**
 * Create or edit a device: name (pattern, ≤ 30; a name the device reported may be kept as it is), alias (≤ 36), product (the
 * device type follows it), organization, gateway (SENSOR products only), address code (hex 00–FF,
 * for TCP products), TCP access (registration string, Modbus TCP target; DeviceTcpFields.tsx), label,
 * description. The location has its own modal; an edit keeps the
 * position and the public flag as they are (PUT replaces the whole device).
 */
import { useMemo, type JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Message from '@arco-design/web-react/es/Message';
import type { FormInstance } from '@arco-design/web-react/es/Form';
import { useTranslation } from 'react-i18next';
import type { Device, DeviceBody } from '../../../server/contract/device.ts';
import type { ProductOption } from '../../../server/contract/product.ts';
import {
  addressCodeProblem,
  aliasProblem,
  descriptionProblem,
  editedNameProblem,
  labelProblem,
  normalizeAddressCode,
} from '../../../server/contract/rules/device.ts';
import { ALIAS_MAX, DESCRIPTION_MAX, NAME_MAX } from '../../../server/contract/validation.ts';
import { FormDrawer } from '../../components/FormDrawer.tsx';
import { trimmedRule } from '../../lib/form-rules.ts';
import { createDevice, updateDevice } from './deviceApi.ts';
import { DeviceTargetFields } from './DeviceTargetFields.tsx';
import { DeviceTcpFields } from './DeviceTcpFields.tsx';
import { tcpBodyOf, tcpValuesOf, type DeviceTcpValues } from './tcpForm.ts';
import { useProductOptions } from './useDeviceOptions.ts';

export interface DeviceFormValues extends DeviceTcpValues {
  name: string;
  alias: string;
  deviceProfileId: string;
  organizationId: string | null;
  gatewayId: string | null;
  addressCode: string;
  label: string;
  description: string;
}

const formFields = [
  'name',
  'alias',
  'deviceProfileId',
  'organizationId',
  'gatewayId',
  'addressCode',
  'registrationFormat',
  'registration',
  'modbusTcpEnabled',
  'modbusTcpHost',
  'modbusTcpPort',
  'label',
  'description',
] as const;

export interface DeviceFormDrawerProps {
  visible: boolean;
  /** The device to edit; null creates one. */
  device: Device | null;
  onClose: () => void;
  onSaved: (device: Device) => void;
}

function valuesOf(device: Device | null): Partial<DeviceFormValues> {
  if (!device) return { name: '', alias: '', organizationId: null, gatewayId: null, addressCode: '', label: '', description: '', ...tcpValuesOf(null) };
  return {
    ...tcpValuesOf(device),
    name: device.name,
    alias: device.alias ?? '',
    deviceProfileId: device.deviceProfileId,
    organizationId: device.organizationId,
    gatewayId: device.gatewayId,
    addressCode: device.addressCode ?? '',
    label: device.label ?? '',
    description: device.description ?? '',
  };
}

function orNull(value: string | null | undefined): string | null {
  const v = value?.trim();
  return v ? v : null;
}

/** The create/update body: the device type and the gateway follow the chosen product. */
export function deviceBodyOf(values: DeviceFormValues, product: ProductOption, current: Device | null): DeviceBody {
  return {
    // A name the device reported is sent back as it is, spaces and all; a new one is trimmed.
    name: current && values.name === current.name ? current.name : values.name.trim(),
    alias: orNull(values.alias),
    // A gateway in a direct product (provisioned with ThingsBoard's `gateway: true`) stays a gateway.
    deviceType: current?.deviceType === 'GATEWAY' && product.deviceType === 'DIRECT_CONNECTION' ? 'GATEWAY' : product.deviceType,
    deviceProfileId: product.id,
    organizationId: values.organizationId ?? null,
    gatewayId: product.deviceType === 'SENSOR' ? (values.gatewayId ?? null) : null,
    addressCode: normalizeAddressCode(values.addressCode),
    ...tcpBodyOf(values, product.transportType === 'TCP'),
    label: orNull(values.label),
    description: orNull(values.description),
    longitude: current?.longitude ?? null,
    latitude: current?.latitude ?? null,
    address: current?.address ?? null,
    isPublic: current?.isPublic ?? false,
  };
}

export function DeviceFormDrawer({ visible, device, onClose, onSaved }: DeviceFormDrawerProps): JSX.Element {
  const { t } = useTranslation(['device', 'table']);
  const products = useProductOptions(visible);
  const initialValues = useMemo(() => {
    const values = valuesOf(device);
    if (!device) values.deviceProfileId = products.items.find((p) => p.isDefault)?.id;
    return values;
  }, [device, products.items]);

  const submit = async (values: DeviceFormValues): Promise<void> => {
    const product = products.items.find((p) => p.id === values.deviceProfileId);
    if (!product) throw new Error('no product chosen');
    const body = deviceBodyOf(values, product, device);
    const saved = device ? await updateDevice({ id: device.id, ...body }) : await createDevice(body);
    Message.success(device ? t('table:editSuccess') : t('table:createSuccess'));
    onSaved(saved);
  };

  return (
    <FormDrawer<DeviceFormValues>
      testId="device-drawer"
      visible={visible && !products.loading}
      mode={device ? 'edit' : 'create'}
      title={device ? t('form.editTitle') : t('form.createTitle')}
      initialValues={initialValues}
      fields={formFields}
      onSubmit={submit}
      onClose={onClose}
    >
      {(form) => <DeviceFormFields form={form} device={device} products={products.items} />}
    </FormDrawer>
  );
}

interface FieldsProps {
  form: FormInstance<DeviceFormValues>;
  device: Device | null;
  products: ProductOption[];
}

function DeviceFormFields({ form, device, products }: FieldsProps): JSX.Element {
  const { t } = useTranslation(['device', 'errors', 'table']);
  const productId = Form.useWatch('deviceProfileId', form) as string | undefined;
  const product = products.find((p) => p.id === productId);
  const addressCode = Form.useWatch('addressCode', form) as string | undefined;
  const showAddressCode = product?.transportType === 'TCP' || !!addressCode;

  return (
    <>
      <Form.Item
        field="name"
        label={t('fields.name')}
        required
        rules={[trimmedRule((value) => editedNameProblem(value, device?.name.trim()))]}
        extra={t('form.nameHint', { max: NAME_MAX })}
      >
        <Input
          placeholder={t('form.namePlaceholder')}
          maxLength={Math.max(NAME_MAX, device?.name.length ?? 0)}
          showWordLimit
          autoComplete="off"
          data-testid="device-form-name"
        />
      </Form.Item>
      <Form.Item field="alias" label={t('fields.alias')} rules={[trimmedRule(aliasProblem)]}>
        <Input placeholder={t('form.aliasPlaceholder')} maxLength={ALIAS_MAX} showWordLimit autoComplete="off" data-testid="device-form-alias" />
      </Form.Item>
      <DeviceTargetFields form={form} products={products} testId="device-form" device={device} />
      {showAddressCode ? (
        <Form.Item
          field="addressCode"
          label={t('fields.addressCode')}
          rules={[trimmedRule(addressCodeProblem)]}
          extra={t('form.addressCodeHint')}
          normalize={(v: string | undefined) => v?.toUpperCase()}
        >
          <Input placeholder="01" maxLength={2} autoComplete="off" style={{ width: 120 }} data-testid="device-form-address-code" />
        </Form.Item>
      ) : null}
      {product?.transportType === 'TCP' ? <DeviceTcpFields /> : null}
      <Form.Item field="label" label={t('fields.label')} rules={[trimmedRule(labelProblem)]}>
        <Input maxLength={ALIAS_MAX} showWordLimit autoComplete="off" data-testid="device-form-label" />
      </Form.Item>
      <Form.Item field="description" label={t('fields.description')} rules={[trimmedRule(descriptionProblem)]}>
        <Input.TextArea maxLength={DESCRIPTION_MAX} showWordLimit autoSize={{ minRows: 2, maxRows: 5 }} data-testid="device-form-description" />
      </Form.Item>
    </>
  );
}
