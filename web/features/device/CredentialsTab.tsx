/**
 * Device credentials tab: the type and its values, a new generated access
 * token (the old one stops working, so it asks first), and an edit modal for ACCESS_TOKEN, X509
 * (RSA public key in PEM) and MQTT basic (client ID, user name, password). The reboot button
 * arrives with commands.
 */
import { useCallback, useEffect, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Descriptions from '@arco-design/web-react/es/Descriptions';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Message from '@arco-design/web-react/es/Message';
import Radio from '@arco-design/web-react/es/Radio';
import Space from '@arco-design/web-react/es/Space';
import Spin from '@arco-design/web-react/es/Spin';
import Switch from '@arco-design/web-react/es/Switch';
import IconEdit from '@arco-design/web-react/icon/react-icon/IconEdit';
import IconRefresh from '@arco-design/web-react/icon/react-icon/IconRefresh';
import { useTranslation } from 'react-i18next';
import {
  credentialsTypes,
  MQTT_FIELD_MAX,
  type CredentialsType,
  type DeviceCredentials,
} from '../../../server/contract/credentials.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { CopyableValue } from '../../components/CopyableValue.tsx';
import { GuardedModal } from '../../components/GuardedModal.tsx';
import { FormError } from '../../components/FormError.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { errorMessage, serverFieldErrors } from '../../lib/error-text.ts';
import {
  credentialsToValues,
  mqttProblems,
  parseMqttView,
  pemProblem,
  tokenProblem,
  valuesToBody,
  type CredentialsValues,
} from './credentialsForm.ts';
import { getCredentials, regenerateToken, updateCredentials } from './deviceApi.ts';
import type { DeviceTabProps } from './deviceTab.ts';
import { GatewayCertificate } from './GatewayCertificate.tsx';
import './device.css';

export function CredentialsTab({ device }: DeviceTabProps): JSX.Element {
  const { t } = useTranslation(['credentials', 'common']);
  const [credentials, setCredentials] = useState<DeviceCredentials | null>(null);
  const [failed, setFailed] = useState(false);
  const [editing, setEditing] = useState(false);

  const load = useCallback(async (): Promise<void> => {
    setFailed(false);
    try {
      setCredentials(await getCredentials(device.id));
    } catch {
      setFailed(true);
    }
  }, [device.id]);

  useEffect(() => {
    void load();
  }, [load]);

  if (!credentials) {
    return failed ? (
      <Alert type="error" content={t('loadFailed')} action={<Button size="small" onClick={() => void load()}>{t('retry')}</Button>} />
    ) : (
      <Spin className="ec-device-spin" />
    );
  }

  const regenerate = async (): Promise<void> => {
    setCredentials(await regenerateToken(device.id));
    Message.success(t('regenerated'));
  };

  return (
    <section className="ec-device-panel" data-testid="credentials-panel" aria-label={t('tab')}>
      <div className="ec-device-panel__actions">
        <ConfirmButton
          testId="credentials-regenerate"
          type="secondary"
          size="default"
          danger={false}
          icon={<IconRefresh />}
          title={
            <div className="ec-confirm-text">
              <strong>{t('regenerateTitle')}</strong>
              <div>{t('regenerateConfirm')}</div>
            </div>
          }
          okText={t('regenerateOk')}
          onConfirm={regenerate}
        >
          {t('regenerate')}
        </ConfirmButton>
        <Button type="primary" icon={<IconEdit />} onClick={() => setEditing(true)} data-testid="credentials-edit">
          {t('edit')}
        </Button>
      </div>
      <CredentialsView credentials={credentials} />
      <GatewayCertificate />
      <GuardedModal visible={editing} title={t('editTitle')} width={600} onClose={() => setEditing(false)}>
        {({ setDirty, requestClose, close }) => (
          <CredentialsForm
            deviceId={device.id}
            credentials={credentials}
            onDirty={setDirty}
            onCancel={requestClose}
            onSaved={(saved) => {
              setCredentials(saved);
              Message.success(t('saved'));
              close();
            }}
          />
        )}
      </GuardedModal>
    </section>
  );
}

function CredentialsView({ credentials }: { credentials: DeviceCredentials }): JSX.Element {
  const { t } = useTranslation('credentials');
  const rows: { label: string; value: JSX.Element | string }[] = [
    { label: t('type'), value: <span data-testid="credentials-type">{t(`types.${credentials.credentialsType}`)}</span> },
    // The spec's names of what is set, as clients written to the spec send them (docs/API.md).
    { label: t('specTypes'), value: <code data-testid="credentials-spec-types">{credentials.specTypes.join(' · ')}</code> },
  ];
  if (credentials.credentialsType === 'ACCESS_TOKEN') {
    rows.push({ label: t('accessToken'), value: <CopyableValue value={credentials.credentialsId} testId="credentials-token" /> });
  } else if (credentials.credentialsType === 'X509_CERTIFICATE') {
    rows.push(
      { label: t('fingerprint'), value: <code className="ec-break">{credentials.credentialsId}</code> },
      {
        label: t('publicKey'),
        value: (
          <pre className="ec-pem" data-testid="credentials-pem">
            {credentials.credentialsValue}
          </pre>
        ),
      },
    );
  } else {
    const mqtt = parseMqttView(credentials.credentialsValue);
    rows.push(
      { label: t('clientId'), value: mqtt.clientId ? <CopyableValue value={mqtt.clientId} testId="credentials-client-id" /> : '—' },
      { label: t('userName'), value: mqtt.userName ? <CopyableValue value={mqtt.userName} testId="credentials-user-name" /> : '—' },
      { label: t('password'), value: <span data-testid="credentials-password">{mqtt.passwordSet ? t('passwordSet') : t('passwordNotSet')}</span> },
    );
  }
  rows.push({ label: t('updatedTime'), value: formatDateTime(credentials.updatedTime) });
  return <Descriptions column={1} data={rows} labelStyle={{ width: 160 }} border />;
}

interface CredentialsFormProps {
  deviceId: string;
  credentials: DeviceCredentials;
  onDirty: (dirty: boolean) => void;
  onCancel: () => void;
  onSaved: (credentials: DeviceCredentials) => void;
}

const formFields = ['credentialsType', 'token', 'pem', 'clientId', 'userName', 'password'] as const;

function CredentialsForm({ deviceId, credentials, onDirty, onCancel, onSaved }: CredentialsFormProps): JSX.Element {
  const { t } = useTranslation(['credentials', 'errors', 'common']);
  const [form] = Form.useForm<CredentialsValues>();
  const [type, setType] = useState<CredentialsType>(credentials.credentialsType);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const initial = credentialsToValues(credentials);
  const passwordSet = credentials.credentialsType === 'MQTT_BASIC' && parseMqttView(credentials.credentialsValue).passwordSet;

  const submit = async (values: CredentialsValues): Promise<void> => {
    setSaving(true);
    setFailure(null);
    try {
      onSaved(await updateCredentials(deviceId, valuesToBody({ ...initial, ...values })));
    } catch (err) {
      setSaving(false);
      // Server details name `credentialsId` / `credentialsValue`: shown on the field of the chosen type.
      const target = type === 'ACCESS_TOKEN' ? 'token' : type === 'X509_CERTIFICATE' ? 'pem' : 'clientId';
      const mapped = serverFieldErrors(err, { credentialsId: values[target], credentialsValue: values[target] }, ['credentialsId', 'credentialsValue']);
      const first = mapped ? Object.values(mapped)[0] : undefined;
      if (first) form.setFields({ [target]: first });
      else setFailure(errorMessage(err));
    }
  };

  const mqttRule = (field: 'clientId' | 'userName' | 'password') => ({
    validator: (_: unknown, cb: (error?: string) => void) => {
      const key = mqttProblems(form.getFieldsValue() as CredentialsValues)[field];
      cb(key ? t(`errors:${key}`) : undefined);
    },
  });

  return (
    <Form<CredentialsValues>
      form={form}
      layout="vertical"
      initialValues={initial}
      onSubmit={(values) => void submit(values)}
      disabled={saving}
      onValuesChange={(changed, all) => {
        if (changed.credentialsType) setType(changed.credentialsType);
        onDirty(formFields.some((f) => (all[f] ?? '') !== (initial[f] ?? '')) || !!all.clearPassword);
      }}
    >
      <Alert className="ec-form-hint" type="warning" content={t('editWarning')} />
      <Form.Item field="credentialsType" label={t('type')}>
        <Radio.Group type="button" data-testid="credentials-form-type">
          {credentialsTypes.map((value) => (
            <Radio key={value} value={value} data-testid={`credentials-form-type-${value}`}>
              {t(`types.${value}`)}
            </Radio>
          ))}
        </Radio.Group>
      </Form.Item>

      {type === 'ACCESS_TOKEN' ? (
        <Form.Item
          field="token"
          label={t('accessToken')}
          extra={t('tokenHint')}
          rules={[{ validator: (v: string | undefined, cb) => { const k = tokenProblem(v ?? ''); cb(k ? t(`errors:${k}`) : undefined); } }]}
        >
          <Input placeholder={t('tokenPlaceholder')} allowClear autoComplete="off" data-testid="credentials-form-token" />
        </Form.Item>
      ) : null}

      {type === 'X509_CERTIFICATE' ? (
        <Form.Item
          field="pem"
          label={t('publicKey')}
          extra={t('pemHint')}
          rules={[
            { required: true, message: t('errors:credentials.pemInvalid') },
            { validator: (v: string | undefined, cb) => { const k = pemProblem(v ?? ''); cb(k ? t(`errors:${k}`) : undefined); } },
          ]}
        >
          <Input.TextArea
            className="ec-pem-input"
            placeholder={'-----BEGIN PUBLIC KEY-----\n…\n-----END PUBLIC KEY-----'}
            autoSize={{ minRows: 6, maxRows: 14 }}
            spellCheck={false}
            data-testid="credentials-form-pem"
          />
        </Form.Item>
      ) : null}

      {type === 'MQTT_BASIC' ? (
        <>
          <Alert className="ec-form-hint" type="info" content={t('mqttHint')} />
          <Form.Item field="clientId" label={t('clientId')} rules={[mqttRule('clientId')]}>
            <Input maxLength={MQTT_FIELD_MAX} autoComplete="off" data-testid="credentials-form-client-id" />
          </Form.Item>
          <Form.Item field="userName" label={t('userName')} rules={[mqttRule('userName')]}>
            <Input maxLength={MQTT_FIELD_MAX} autoComplete="off" data-testid="credentials-form-user-name" />
          </Form.Item>
          <Form.Item field="password" label={t('password')} rules={[mqttRule('password')]}>
            <Input.Password
              maxLength={MQTT_FIELD_MAX}
              autoComplete="new-password"
              placeholder={passwordSet ? t('passwordKeepPlaceholder') : t('passwordPlaceholder')}
              data-testid="credentials-form-password"
            />
          </Form.Item>
          {passwordSet ? (
            <Form.Item field="clearPassword" triggerPropName="checked" label={t('clearPassword')}>
              <Switch data-testid="credentials-form-clear-password" />
            </Form.Item>
          ) : null}
        </>
      ) : null}

      <FormError message={failure} testId="credentials-form-error" />
      <Space className="ec-modal-footer">
        <Button onClick={onCancel} data-testid="credentials-form-cancel">
          {t('common:cancel')}
        </Button>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="credentials-form-submit">
          {t('common:save')}
        </Button>
      </Space>
    </Form>
  );
}
