/**
 * Create or edit a product (contract rules in server/contract/product.ts):
 * name, category (enabled ones; a disabled category stays shown when the product already has it),
 * device type (locked while devices use the product), transport type, TCP protocol and auth type
 * (shown and required only for TCP), access protocol, set-as-default, device provisioning (its key
 * and secret are generated when it is first turned on and shown on the product's basic tab), image
 * and description; a TCP MODBUS-RTU product also its polling period and how many unused registers
 * one request may bridge (server/contract/tcp-device.ts). A name a gateway gave the product may be kept as it is.
 */
import { useEffect, useState, type JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Message from '@arco-design/web-react/es/Message';
import Switch from '@arco-design/web-react/es/Switch';
import { useTranslation } from 'react-i18next';
import type { CategoryOption } from '../../../server/contract/category.ts';
import {
  PROTOCOL_MAX,
  type DeviceType,
  type Product,
  type TcpAuthType,
  type TcpProtocolType,
  type TransportType,
} from '../../../server/contract/product.ts';
import { editedNameProblem } from '../../../server/contract/rules/device.ts';
import { MODBUS_GAP_DEFAULT, POLL_INTERVAL_DEFAULT_MS } from '../../../server/contract/tcp-device.ts';
import { NAME_MAX } from '../../../server/contract/validation.ts';
import { DescriptionFormItem } from '../../components/DescriptionFormItem.tsx';
import { FormDrawer } from '../../components/FormDrawer.tsx';
import { ImageUploadField } from '../../components/ImageUploadField.tsx';
import { maxLengthRule, nameRules, trimmedRule } from '../../lib/form-rules.ts';
import { categoryOptions } from '../category/categoryApi.ts';
import { createProduct, updateProduct } from './productApi.ts';
import { ProductCategoryField } from './ProductCategoryField.tsx';
import { ProductTcpFields } from './ProductTcpFields.tsx';
import { ProductTypeFields } from './ProductTypeFields.tsx';

interface ProductValues {
  name: string;
  /** undefined rather than null when unset: the select shows its placeholder then. */
  categoryId: string | undefined;
  deviceType: DeviceType;
  transportType: TransportType;
  tcpProtocolType: TcpProtocolType | null;
  tcpAuthType: TcpAuthType | null;
  protocol: string;
  isDefault: boolean;
  provisionEnabled: boolean;
  image: string | null;
  description: string;
  pollIntervalMs: number;
  modbusGapMax: number;
}

const fields = [
  'name',
  'categoryId',
  'deviceType',
  'transportType',
  'tcpProtocolType',
  'tcpAuthType',
  'protocol',
  'isDefault',
  'provisionEnabled',
  'image',
  'description',
  'pollIntervalMs',
  'modbusGapMax',
] as const;

function valuesOf(product: Product | null): ProductValues {
  if (!product) {
    return {
      name: '',
      categoryId: undefined,
      deviceType: 'DIRECT_CONNECTION',
      transportType: 'DEFAULT',
      tcpProtocolType: null,
      tcpAuthType: null,
      protocol: '',
      isDefault: false,
      provisionEnabled: false,
      image: null,
      description: '',
      pollIntervalMs: POLL_INTERVAL_DEFAULT_MS,
      modbusGapMax: MODBUS_GAP_DEFAULT,
    };
  }
  return {
    name: product.name,
    categoryId: product.categoryId ?? undefined,
    deviceType: product.deviceType,
    transportType: product.transportType,
    tcpProtocolType: product.tcpProtocolType,
    tcpAuthType: product.tcpAuthType,
    protocol: product.protocol ?? '',
    isDefault: product.isDefault,
    provisionEnabled: product.provisionEnabled,
    image: product.image,
    description: product.description ?? '',
    pollIntervalMs: product.pollIntervalMs,
    modbusGapMax: product.modbusGapMax,
  };
}

/** The create/update body from the form (without the default flag, which depends on the product). */
function bodyOf(values: ProductValues, editing: Product | null): Omit<Parameters<typeof createProduct>[0], 'isDefault'> {
  const tcp = values.transportType === 'TCP';
  return {
    // A name a gateway gave the product goes back as it is; a new one is trimmed.
    name: editing && values.name === editing.name ? editing.name : values.name.trim(),
    categoryId: values.categoryId || null,
    deviceType: values.deviceType,
    transportType: values.transportType,
    tcpProtocolType: tcp ? values.tcpProtocolType : null,
    tcpAuthType: tcp ? values.tcpAuthType : null,
    protocol: values.protocol?.trim() || null,
    image: values.image || null,
    description: values.description?.trim() || null,
    provisionEnabled: !!values.provisionEnabled,
    // Kept for every transport (the update replaces the product); only Modbus products poll.
    pollIntervalMs: values.pollIntervalMs ?? POLL_INTERVAL_DEFAULT_MS,
    modbusGapMax: values.modbusGapMax ?? MODBUS_GAP_DEFAULT,
  };
}

export interface ProductDrawerProps {
  /** undefined: closed; null: create; a product: edit it. */
  editing: Product | null | undefined;
  onClose: () => void;
  onSaved: (product: Product) => void;
}

export function ProductDrawer({ editing, onClose, onSaved }: ProductDrawerProps): JSX.Element {
  const { t } = useTranslation(['product', 'table', 'errors']);
  const [categories, setCategories] = useState<CategoryOption[]>([]);
  const open = editing !== undefined;

  useEffect(() => {
    if (open) categoryOptions().then(setCategories, () => undefined);
  }, [open]);

  const submit = async (values: ProductValues): Promise<void> => {
    const body = bodyOf(values, editing ?? null);
    // The default's flag cannot be cleared; leaving it out keeps it as it is.
    const isDefault = editing?.isDefault ? {} : { isDefault: !!values.isDefault };
    const saved = editing
      ? await updateProduct({ id: editing.id, ...body, ...isDefault })
      : await createProduct({ ...body, ...isDefault });
    Message.success(editing ? t('saved') : t('created'));
    onSaved(saved);
  };

  const deviceTypeLocked = !!editing && editing.deviceCount > 0;

  return (
    <FormDrawer<ProductValues>
      testId="product-drawer"
      visible={open}
      mode={editing ? 'edit' : 'create'}
      title={editing ? t('editTitle') : t('createTitle')}
      initialValues={valuesOf(editing ?? null)}
      fields={fields}
      onSubmit={submit}
      onClose={onClose}
    >
      <Form.Item field="image" label={t('image')}>
        <ImageUploadField testId="product-form-image" />
      </Form.Item>
      <Form.Item
        field="name"
        label={t('name')}
        rules={editing ? [trimmedRule((value) => editedNameProblem(value, editing.name.trim()))] : nameRules()}
        required
      >
        <Input
          placeholder={t('namePlaceholder')}
          maxLength={{ length: Math.max(NAME_MAX, editing?.name.length ?? 0), errorOnly: true }}
          showWordLimit
          data-testid="product-form-name"
        />
      </Form.Item>
      <ProductCategoryField categories={categories} currentId={editing?.categoryId ?? null} />
      <ProductTypeFields lockedBy={deviceTypeLocked ? editing.deviceCount : null} />
      <ProductTcpFields />
      <Form.Item field="protocol" label={t('protocol')} rules={[maxLengthRule(PROTOCOL_MAX, 'protocol')]}>
        <Input placeholder={t('protocolPlaceholder')} maxLength={{ length: PROTOCOL_MAX, errorOnly: true }} data-testid="product-form-protocol" />
      </Form.Item>
      <Form.Item
        field="isDefault"
        label={t('isDefault')}
        triggerPropName="checked"
        extra={editing?.isDefault ? t('isDefaultLocked') : t('isDefaultHint')}
      >
        <Switch disabled={!!editing?.isDefault} data-testid="product-form-default" />
      </Form.Item>
      <Form.Item field="provisionEnabled" label={t('provision.enabled')} triggerPropName="checked" extra={t('provision.hint')}>
        <Switch data-testid="product-form-provision" />
      </Form.Item>
      <DescriptionFormItem label={t('description')} placeholder={t('descriptionPlaceholder')} testId="product-form-description" />
    </FormDrawer>
  );
}
