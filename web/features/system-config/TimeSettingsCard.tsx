/**
 * System configuration → time: the time zone, NTP on or off with its servers, or the time by hand
 * while NTP is off (PUT /api/yt/system/time, carried out by the `--network-applier`).
 */
import { useEffect, useMemo, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import DatePicker from '@arco-design/web-react/es/DatePicker';
import Form from '@arco-design/web-react/es/Form';
import Message from '@arco-design/web-react/es/Message';
import Select from '@arco-design/web-react/es/Select';
import Switch from '@arco-design/web-react/es/Switch';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { NTP_SERVERS_MAX, type SystemInfo } from '../../../server/contract/system.ts';
import { FormError } from '../../components/FormError.tsx';
import { errorMessage, serverFieldErrors } from '../../lib/error-text.ts';
import { saveSystemTime } from './systemApi.ts';

interface TimeValues {
  timeZone: string;
  ntpEnabled: boolean;
  ntpServers: string[];
  /** `YYYY-MM-DD HH:mm:ss` in the browser's zone, or empty. */
  time?: string;
}

function timeZones(current: string): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', current, ...known])];
}

export function TimeSettingsCard({ info, onSaved }: { info: SystemInfo | null; onSaved: () => void }): JSX.Element {
  const { t } = useTranslation('system');
  const [form] = Form.useForm<TimeValues>();
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [ntpEnabled, setNtpEnabled] = useState(true);
  const zones = useMemo(() => timeZones(info?.timeZone ?? 'UTC'), [info?.timeZone]);

  useEffect(() => {
    if (!info) return;
    form.setFieldsValue({ timeZone: info.timeZone, ntpEnabled: info.ntp.enabled, ntpServers: info.ntp.servers, time: undefined });
    setNtpEnabled(info.ntp.enabled);
  }, [info, form]);

  const submit = async (values: TimeValues): Promise<void> => {
    setSaving(true);
    setFailure(null);
    try {
      const time = !values.ntpEnabled && values.time ? dayjs(values.time).valueOf() : undefined;
      await saveSystemTime({ timeZone: values.timeZone, ntpEnabled: values.ntpEnabled, ntpServers: values.ntpServers ?? [], ...(time === undefined ? {} : { time }) });
      Message.success(t('time.saved'));
      onSaved();
    } catch (err) {
      const mapped = serverFieldErrors(err, values, ['timeZone', 'ntpServers', 'time'] as const);
      if (mapped) form.setFields(mapped);
      else setFailure(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={<h2 className="ec-system-config__title">{t('time.title')}</h2>} bordered={false}>
      {info?.applier === 'file' ? <Alert type="info" content={t('time.fileMode')} className="ec-system-config__intro" /> : null}
      <Form<TimeValues>
        form={form}
        layout="vertical"
        disabled={!info || saving}
        onSubmit={(v) => void submit(v)}
        onValuesChange={(changed) => {
          if (changed.ntpEnabled !== undefined) setNtpEnabled(changed.ntpEnabled);
        }}
      >
        <Form.Item field="timeZone" label={t('time.timeZone')} rules={[{ required: true }]}>
          <Select showSearch options={zones} data-testid="time-zone" aria-label={t('time.timeZone')} />
        </Form.Item>
        <Form.Item field="ntpEnabled" label={t('time.ntpEnabled')} triggerPropName="checked">
          <Switch data-testid="time-ntp" />
        </Form.Item>
        <Form.Item
          field="ntpServers"
          label={t('time.ntpServers')}
          extra={t('time.ntpServersHint')}
          disabled={!ntpEnabled}
          rules={[{ type: 'array', maxLength: NTP_SERVERS_MAX }]}
        >
          <Select mode="multiple" allowCreate data-testid="time-ntp-servers" aria-label={t('time.ntpServers')} />
        </Form.Item>
        <Form.Item field="time" label={t('time.manualTime')} extra={t('time.manualTimeHint')} disabled={ntpEnabled}>
          <DatePicker showTime format="YYYY-MM-DD HH:mm:ss" style={{ width: '100%' }} data-testid="time-manual" />
        </Form.Item>
        <FormError message={failure} testId="time-error" />
        <Button type="primary" htmlType="submit" loading={saving} data-testid="time-save">
          {t('time.save')}
        </Button>
      </Form>
    </Card>
  );
}
