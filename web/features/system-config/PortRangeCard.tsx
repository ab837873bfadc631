/**
 * System configuration → port range: the ports the gateway assigns dynamically (Node-RED
 * instances). Two ports from 1024 to 65535, the first below the second (server/contract/port-range.ts).
 * Not mounted here: the integrator places it on the system configuration page.
 */
import { useEffect, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Form from '@arco-design/web-react/es/Form';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Message from '@arco-design/web-react/es/Message';
import { useTranslation } from 'react-i18next';
import { portRangeProblem, portRangeRoutes, type PortRange } from '../../../server/contract/port-range.ts';
import { FormError } from '../../components/FormError.tsx';
import { api } from '../../lib/api-client.ts';
import { errorMessage, serverFieldErrors } from '../../lib/error-text.ts';
import { useLeaveGuard } from '../../lib/leave-guard.ts';

export function PortRangeCard(): JSX.Element {
  const { t } = useTranslation(['systemConfig', 'errors']);
  const [form] = Form.useForm<PortRange>();
  const [loaded, setLoaded] = useState(false);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  useLeaveGuard(dirty);

  useEffect(() => {
    let live = true;
    api(portRangeRoutes.get, { silent: true }).then(
      (range) => {
        if (!live) return;
        form.setFieldsValue(range);
        setLoaded(true);
      },
      (err: unknown) => live && setFailure(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [form]);

  const submit = async (values: PortRange): Promise<void> => {
    setSaving(true);
    setFailure(null);
    try {
      form.setFieldsValue(await api(portRangeRoutes.save, { body: values, silent: true }));
      setDirty(false);
      Message.success(t('portRange.saved'));
    } catch (err) {
      const mapped = serverFieldErrors(err, values, ['start', 'end'] as const);
      if (mapped) form.setFields(mapped);
      else setFailure(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };

  const orderRule = {
    validator: (value: number | undefined, callback: (message?: string) => void) => {
      const start = form.getFieldValue('start') as number | undefined;
      if (value === undefined || start === undefined) return callback();
      const problem = portRangeProblem({ start, end: value });
      callback(problem ? t('errors:portRange.order') : undefined);
    },
  };

  return (
    <Card title={<h2 className="ec-system-config__title">{t('portRange.title')}</h2>} bordered={false}>
      <Alert type="info" content={t('portRange.intro')} className="ec-system-config__intro" />
      <Form<PortRange> form={form} layout="inline" onSubmit={(v) => void submit(v)} onValuesChange={() => setDirty(true)} disabled={!loaded || saving}>
        <Form.Item field="start" label={t('portRange.start')} rules={[{ required: true }]}>
          <InputNumber min={1024} max={65535} precision={0} data-testid="port-range-start" />
        </Form.Item>
        <Form.Item field="end" label={t('portRange.end')} rules={[{ required: true }, orderRule]}>
          <InputNumber min={1024} max={65535} precision={0} data-testid="port-range-end" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="port-range-save">
            {t('portRange.save')}
          </Button>
        </Form.Item>
      </Form>
      <FormError message={failure} testId="port-range-error" />
    </Card>
  );
}
