/**
 * Device detail → attributes: the shared attributes users set for the device (added, edited and
 * deleted here; each change is pushed to the device at once), and the client attributes the device
 * reported, read-only.
 */
import { useCallback, useEffect, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Empty from '@arco-design/web-react/es/Empty';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Message from '@arco-design/web-react/es/Message';
import Space from '@arco-design/web-react/es/Space';
import Table from '@arco-design/web-react/es/Table';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import IconPlus from '@arco-design/web-react/icon/react-icon/IconPlus';
import { useTranslation } from 'react-i18next';
import type { AttributeValue } from '../../../server/contract/telemetry.ts';
import { attributeKeyProblem } from '../../../server/contract/rules/attribute-key.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { FormError } from '../../components/FormError.tsx';
import { GuardedModal } from '../../components/GuardedModal.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { errorMessage } from '../../lib/error-text.ts';
import { fieldText, problemText } from '../../lib/form-rules.ts';
import type { DeviceTabProps } from '../device/deviceTab.ts';
import './telemetry.css';
import {
  attributeValueText,
  deleteSharedAttribute,
  listClientAttributes,
  listSharedAttributes,
  parseAttributeValue,
  saveSharedAttribute,
} from './sharedAttributesApi.ts';

/** The attribute being edited: null closed, `{ key: '' }` a new one. */
type Editing = { key: string; value: string; isNew: boolean } | null;

export function SharedAttributesTab({ device }: DeviceTabProps): JSX.Element {
  const { t } = useTranslation(['telemetry', 'table']);
  const [shared, setShared] = useState<AttributeValue[]>([]);
  const [client, setClient] = useState<AttributeValue[]>([]);
  const [loading, setLoading] = useState(true);
  const [editing, setEditing] = useState<Editing>(null);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const [s, c] = await Promise.all([listSharedAttributes(device.id), listClientAttributes(device.id)]);
      setShared(s);
      setClient(c);
    } catch {
      // The HTTP client showed why.
    } finally {
      setLoading(false);
    }
  }, [device.id]);

  useEffect(() => {
    void load();
  }, [load]);

  const valueColumns: ColumnProps<AttributeValue>[] = [
    { title: t('shared.key'), dataIndex: 'key', render: (v: string) => <code>{v}</code> },
    { title: t('shared.value'), dataIndex: 'value', render: (v: unknown) => <code>{attributeValueText(v)}</code> },
    { title: t('shared.updated'), dataIndex: 'lastUpdateTs', width: 180, render: (v: number) => formatDateTime(v) },
  ];
  const sharedColumns: ColumnProps<AttributeValue>[] = [
    ...valueColumns,
    {
      title: t('table:actions'),
      width: 160,
      render: (_: unknown, row) => (
        <Space size={4}>
          <Button
            type="text"
            size="small"
            onClick={() => setEditing({ key: row.key, value: attributeValueText(row.value), isNew: false })}
            data-testid={`shared-attribute-edit-${row.key}`}
          >
            {t('table:edit')}
          </Button>
          <ConfirmButton
            type="text"
            size="small"
            testId={`shared-attribute-delete-${row.key}`}
            title={t('shared.deleteConfirm', { key: row.key })}
            onConfirm={async () => {
              await deleteSharedAttribute(device.id, row.key);
              Message.success(t('shared.deleted'));
              await load();
            }}
          >
            {t('table:delete')}
          </ConfirmButton>
        </Space>
      ),
    },
  ];

  return (
    <section data-testid="shared-attributes-tab">
      <div className="ec-attributes__head">
        <h3>{t('shared.title')}</h3>
        <Button type="primary" icon={<IconPlus />} onClick={() => setEditing({ key: '', value: '', isNew: true })} data-testid="shared-attribute-add">
          {t('shared.add')}
        </Button>
      </div>
      <p className="ec-attributes__hint">{t('shared.hint')}</p>
      <Table<AttributeValue>
        rowKey="key"
        columns={sharedColumns}
        data={shared}
        loading={loading}
        pagination={false}
        noDataElement={<Empty description={t('shared.empty')} />}
        data-testid="shared-attributes-table"
      />
      <h3>{t('shared.clientTitle')}</h3>
      <Table<AttributeValue>
        rowKey="key"
        columns={valueColumns}
        data={client}
        loading={loading}
        pagination={false}
        noDataElement={<Empty description={t('shared.clientEmpty')} />}
        data-testid="client-attributes-table"
      />
      <GuardedModal visible={editing !== null} title={editing?.isNew ? t('shared.add') : t('shared.edit')} onClose={() => setEditing(null)}>
        {({ setDirty, requestClose, close }) =>
          editing ? (
            <SharedAttributeForm
              deviceId={device.id}
              editing={editing}
              taken={shared.map((a) => a.key)}
              onDirty={setDirty}
              onCancel={requestClose}
              onSaved={() => {
                close();
                setEditing(null);
                void load();
              }}
            />
          ) : null
        }
      </GuardedModal>
    </section>
  );
}

interface FormValues {
  key: string;
  value: string;
}

function SharedAttributeForm(props: {
  deviceId: string;
  editing: NonNullable<Editing>;
  taken: readonly string[];
  onDirty: (dirty: boolean) => void;
  onCancel: () => void;
  onSaved: () => void;
}): JSX.Element {
  const { t } = useTranslation(['telemetry', 'common']);
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const initial: FormValues = { key: props.editing.key, value: props.editing.value };

  const submit = async (values: FormValues): Promise<void> => {
    setSaving(true);
    setFailure(null);
    try {
      await saveSharedAttribute(props.deviceId, values.key, parseAttributeValue(values.value));
      Message.success(t('shared.saved'));
      props.onSaved();
    } catch (err) {
      setSaving(false);
      setFailure(errorMessage(err));
    }
  };

  return (
    <Form<FormValues>
      form={form}
      layout="vertical"
      initialValues={initial}
      disabled={saving}
      onSubmit={(values) => void submit(values)}
      onValuesChange={(_, all) => props.onDirty(all.key !== initial.key || all.value !== initial.value)}
    >
      <Form.Item
        field="key"
        label={t('shared.key')}
        disabled={!props.editing.isNew}
        rules={[
          {
            validator: (value: string | undefined, cb: (error?: string) => void) => {
              const found = attributeKeyProblem(value ?? '');
              if (found) return cb(problemText(found));
              if (props.editing.isNew && props.taken.includes(value ?? '')) return cb(t('shared.keyTaken'));
              cb();
            },
          },
        ]}
      >
        <Input autoComplete="off" data-testid="shared-attribute-key" />
      </Form.Item>
      <Form.Item
        field="value"
        label={t('shared.value')}
        extra={t('shared.valueHint')}
        rules={[{ validator: (value: string | undefined, cb: (error?: string) => void) => cb(value?.trim() ? undefined : fieldText('required')) }]}
      >
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} data-testid="shared-attribute-value" />
      </Form.Item>
      <FormError message={failure} testId="shared-attribute-error" />
      <div className="ec-modal-footer">
        <Space>
          <Button onClick={props.onCancel} data-testid="shared-attribute-cancel">
            {t('common:cancel')}
          </Button>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="shared-attribute-submit">
            {t('common:save')}
          </Button>
        </Space>
      </div>
    </Form>
  );
}
