/**
 * System configuration → map: the tile server device maps load from (server/contract/map.ts). Empty means no map, only coordinate fields: the gateway's LAN
 * often has no internet, so no public tile server is assumed.
 */
import { useEffect, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Message from '@arco-design/web-react/es/Message';
import { useTranslation } from 'react-i18next';
import { TILE_URL_MAX, tileUrlProblem } from '../../../server/contract/rules/tile-url.ts';
import { FormError } from '../../components/FormError.tsx';
import { errorMessage, serverFieldErrors } from '../../lib/error-text.ts';
import { trimmedRule } from '../../lib/form-rules.ts';
import { loadMapSettings, saveMapSettings } from '../device/mapSettingsApi.ts';
import { useLeaveGuard } from '../../lib/leave-guard.ts';

interface MapValues {
  tileUrl: string;
}

export function MapSettingsCard(): JSX.Element {
  const { t } = useTranslation('systemConfig');
  const [form] = Form.useForm<MapValues>();
  const [loaded, setLoaded] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // The address as last loaded or saved: an edit that differs is unsaved, and leaving asks first.
  const [savedUrl, setSavedUrl] = useState('');
  const [dirty, setDirty] = useState(false);
  useLeaveGuard(dirty);

  useEffect(() => {
    let live = true;
    loadMapSettings().then(
      (s) => {
        if (!live) return;
        form.setFieldsValue({ tileUrl: s.tileUrl ?? '' });
        setSavedUrl(s.tileUrl ?? '');
        setLoaded(true);
      },
      (err: unknown) => live && setFailure(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [form]);

  const submit = async (values: MapValues): Promise<void> => {
    setSaving(true);
    setFailure(null);
    try {
      const saved = await saveMapSettings({ tileUrl: values.tileUrl?.trim() || null });
      form.setFieldsValue({ tileUrl: saved.tileUrl ?? '' });
      setSavedUrl(saved.tileUrl ?? '');
      setDirty(false);
      Message.success(t('map.saved'));
    } catch (err) {
      const mapped = serverFieldErrors(err, values, ['tileUrl'] as const);
      if (mapped) form.setFields(mapped);
      else setFailure(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={<h2 className="ec-system-config__title">{t('map.title')}</h2>} bordered={false}>
        <Alert type="info" content={t('map.intro')} className="ec-system-config__intro" />
        <Form<MapValues>
          form={form}
          layout="vertical"
          onSubmit={(v) => void submit(v)}
          onValuesChange={(_, all) => setDirty((all.tileUrl ?? '') !== savedUrl)}
          disabled={!loaded || saving}
        >
          <Form.Item field="tileUrl" label={t('map.tileUrl')} rules={[trimmedRule(tileUrlProblem)]} extra={t('map.tileUrlHint')}>
            <Input placeholder="http://192.168.1.20:8080/tiles/{z}/{x}/{y}.png" maxLength={TILE_URL_MAX} autoComplete="off" data-testid="map-tile-url" />
          </Form.Item>
          <FormError message={failure} testId="map-error" />
          <div>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="map-save">
              {t('map.save')}
            </Button>
          </div>
        </Form>
      </Card>
  );
}
