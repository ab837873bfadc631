/**
 * Add or edit a video channel. The maker's rule builds the RTSP address, previewed as it will be
 * opened (without the password); `other` takes a typed rtsp:// address. The password is
 * write-only: left empty on an edit, the stored one stays.
 */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Message from '@arco-design/web-react/es/Message';
import { useTranslation } from 'react-i18next';
import {
  RTSP_PORT_DEFAULT,
  VIDEO_ADDRESS_MAX,
  VIDEO_CHANNEL_NO_MAX,
  VIDEO_TEXT_MAX,
  videoDeviceKinds,
  videoManufacturers,
  videoStreamTypes,
  type VideoChannel,
  type VideoChannelBody,
  type VideoDeviceKind,
  type VideoManufacturer,
  type VideoStreamType,
} from '../../../server/contract/video.ts';
import { rtspAddressOf } from '../../../server/contract/video-address.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { FormDrawer } from '../../components/FormDrawer.tsx';
import { requiredRule } from '../../lib/form-rules.ts';
import { DeviceSelect } from '../device/DeviceSelect.tsx';
import { OrganizationTreeSelect } from '../organization/OrganizationTreeSelect.tsx';
import { createChannel, updateChannel } from './videoApi.ts';

interface ChannelValues {
  name: string;
  manufacturer: VideoManufacturer;
  organizationId?: string;
  deviceKind: VideoDeviceKind;
  deviceId?: string;
  channelNo: number;
  host: string;
  rtspPort: number;
  username: string;
  password: string;
  streamType: VideoStreamType;
  rtspAddress: string;
  nationalCode: string;
  channelCode: string;
  model: string;
}

const fields = ['name', 'manufacturer', 'organizationId', 'deviceKind', 'deviceId', 'channelNo', 'host', 'rtspPort', 'username', 'password', 'streamType', 'rtspAddress', 'nationalCode', 'channelCode', 'model'] as const;

function valuesOf(c: VideoChannel | null, deviceId: string | undefined): Partial<ChannelValues> {
  if (!c) return { manufacturer: 'hikvision', deviceKind: 'CAMERA', channelNo: 1, rtspPort: RTSP_PORT_DEFAULT, streamType: 'master', deviceId };
  return {
    name: c.name,
    manufacturer: c.manufacturer,
    organizationId: c.organizationId ?? undefined,
    deviceKind: c.deviceKind,
    deviceId: c.deviceId ?? undefined,
    channelNo: c.channelNo,
    host: c.host ?? '',
    rtspPort: c.rtspPort,
    username: c.username ?? '',
    password: '',
    streamType: c.streamType,
    rtspAddress: c.manufacturer === 'other' ? c.rtspAddress : '',
    nationalCode: c.nationalCode ?? '',
    channelCode: c.channelCode ?? '',
    model: c.model ?? '',
  };
}

function bodyOf(v: ChannelValues, editing: boolean): VideoChannelBody {
  const text = (s: string | undefined): string | null => s?.trim() || null;
  const other = v.manufacturer === 'other';
  return {
    name: v.name.trim(),
    manufacturer: v.manufacturer,
    organizationId: v.organizationId ?? null,
    deviceKind: v.deviceKind,
    deviceId: v.deviceId ?? null,
    channelNo: v.channelNo,
    host: other ? null : text(v.host),
    rtspPort: v.rtspPort,
    username: text(v.username),
    // An empty password on an edit keeps the stored one.
    ...(v.password || !editing ? { password: v.password ?? '' } : {}),
    streamType: v.streamType,
    rtspAddress: other ? text(v.rtspAddress) : null,
    nationalCode: text(v.nationalCode),
    channelCode: text(v.channelCode),
    model: text(v.model),
  };
}

/** The address the gateway will open, as the maker's rule builds it. */
function AddressPreview(): JSX.Element {
  const { t } = useTranslation('video');
  const { form } = Form.useFormContext();
  const v = (Form.useWatch(['manufacturer', 'host', 'rtspPort', 'channelNo', 'streamType'] as never, form) ?? {}) as Partial<ChannelValues>;
  const address = v.manufacturer && v.manufacturer !== 'other'
    ? rtspAddressOf({ manufacturer: v.manufacturer, host: v.host?.trim() || null, rtspPort: v.rtspPort ?? RTSP_PORT_DEFAULT, channelNo: v.channelNo ?? 1, streamType: v.streamType ?? 'master', typed: null })
    : null;
  return (
    <Form.Item label={t('fields.rtspAddress')} extra={t('form.addressHint')}>
      <code data-testid="video-form-address-preview">{address ?? '—'}</code>
    </Form.Item>
  );
}

/** The typed address for `other`, else the parts the maker's rule builds it from. */
function AddressFields(): JSX.Element {
  const { t } = useTranslation('video');
  const { form } = Form.useFormContext();
  const other = Form.useWatch('manufacturer', form) === 'other';
  return (
    <>
      {other ? (
        <Form.Item field="rtspAddress" label={t('fields.rtspAddress')} rules={[requiredRule()]} required extra={t('form.typedHint')}>
          <Input placeholder="rtsp://192.168.1.64:554/live" maxLength={{ length: VIDEO_ADDRESS_MAX, errorOnly: true }} data-testid="video-form-rtspAddress" />
        </Form.Item>
      ) : (
        <>
          <Form.Item field="host" label={t('fields.host')} rules={[requiredRule()]} required>
            <Input placeholder="192.168.1.64" maxLength={{ length: 255, errorOnly: true }} data-testid="video-form-host" />
          </Form.Item>
          <Form.Item field="rtspPort" label={t('fields.rtspPort')}>
            <InputNumber min={1} max={65535} precision={0} data-testid="video-form-rtspPort" />
          </Form.Item>
          <Form.Item field="channelNo" label={t('fields.channelNo')}>
            <InputNumber min={1} max={VIDEO_CHANNEL_NO_MAX} precision={0} data-testid="video-form-channelNo" />
          </Form.Item>
          <Form.Item field="streamType" label={t('fields.streamType')}>
            <EnumSelect ns="video" group="streamType" values={videoStreamTypes} variant="radio" testId="video-form-streamType" />
          </Form.Item>
          <AddressPreview />
        </>
      )}
    </>
  );
}

export interface VideoChannelDrawerProps {
  /** undefined: closed; null: create; a channel: edit it. */
  editing: VideoChannel | null | undefined;
  /** The device a new channel is bound to (the device detail's tab). */
  deviceId?: string;
  onClose: () => void;
  onSaved: () => void;
}

export function VideoChannelDrawer({ editing, deviceId, onClose, onSaved }: VideoChannelDrawerProps): JSX.Element {
  const { t } = useTranslation('video');
  const submit = async (values: ChannelValues): Promise<void> => {
    const body = bodyOf(values, Boolean(editing));
    if (editing) await updateChannel({ id: editing.id, ...body });
    else await createChannel(body);
    Message.success(editing ? t('saved') : t('created'));
    onSaved();
  };
  const text = (field: keyof ChannelValues, max = VIDEO_TEXT_MAX, extra?: string): JSX.Element => (
    <Form.Item field={field} label={t(`fields.${field}` as 'fields.name')} extra={extra}>
      <Input maxLength={{ length: max, errorOnly: true }} data-testid={`video-form-${field}`} />
    </Form.Item>
  );
  return (
    <FormDrawer<ChannelValues>
      testId="video-drawer"
      visible={editing !== undefined}
      mode={editing ? 'edit' : 'create'}
      title={editing ? t('editTitle') : t('createTitle')}
      initialValues={valuesOf(editing ?? null, deviceId)}
      fields={fields}
      onSubmit={submit}
      onClose={onClose}
    >
      <>
            <Form.Item field="name" label={t('fields.name')} rules={[requiredRule()]} required>
              <Input maxLength={{ length: VIDEO_TEXT_MAX, errorOnly: true }} showWordLimit data-testid="video-form-name" />
            </Form.Item>
            <Form.Item field="manufacturer" label={t('fields.manufacturer')} required>
              <EnumSelect ns="video" group="manufacturer" values={videoManufacturers} testId="video-form-manufacturer" />
            </Form.Item>
            <Form.Item field="deviceKind" label={t('fields.deviceKind')}>
              <EnumSelect ns="video" group="deviceKind" values={videoDeviceKinds} variant="radio" testId="video-form-device-kind" />
            </Form.Item>
            <Form.Item field="organizationId" label={t('fields.organization')}>
              <OrganizationTreeSelect testId="video-form-organization" />
            </Form.Item>
            <Form.Item field="deviceId" label={t('fields.device')} extra={t('form.deviceHint')}>
              <DeviceSelect<string> allowClear placeholder={t('fields.devicePlaceholder')} testId="video-form-device" style={{ width: '100%' }} />
            </Form.Item>
            <AddressFields />
            {text('username')}
            <Form.Item field="password" label={t('fields.password')} extra={editing?.passwordSet ? t('form.passwordKept') : undefined}>
              <Input.Password autoComplete="new-password" maxLength={{ length: VIDEO_TEXT_MAX, errorOnly: true }} data-testid="video-form-password" />
            </Form.Item>
            {text('nationalCode', 20, t('form.nationalCodeHint'))}
            {text('channelCode')}
            {text('model')}
      </>
    </FormDrawer>
  );
}
