/**
 * The device/key pairs of a report: each a device picked by searching the server and a key typed
 * or picked from the keys that device has reported (a key may be written before it is reported).
 */
import { useEffect, useState, type JSX } from 'react';
import AutoComplete from '@arco-design/web-react/es/AutoComplete';
import Form from '@arco-design/web-react/es/Form';
import { useTranslation } from 'react-i18next';
import { REPORT_SERIES_MAX } from '../../../server/contract/report.ts';
import { requiredRule } from '../../lib/form-rules.ts';
import { DeviceSelect } from '../device/DeviceSelect.tsx';
import { AddRowButton, RemoveRowButton } from '../thing-model/RowButtons.tsx';
import { reportedKeys } from './reportApi.ts';

function KeyInput({ deviceId, value, onChange, testId }: { deviceId: string | undefined; value?: string; onChange?: (v: string) => void; testId: string }): JSX.Element {
  const { t } = useTranslation('reports');
  const [keys, setKeys] = useState<string[]>([]);
  useEffect(() => {
    setKeys([]);
    if (deviceId) void reportedKeys(deviceId).then(setKeys, () => undefined);
  }, [deviceId]);
  return <AutoComplete value={value} onChange={(v) => onChange?.(String(v))} data={keys} placeholder={t('form.keyPlaceholder')} data-testid={testId} />;
}

export function SeriesField(): JSX.Element {
  const { t } = useTranslation('reports');
  const { form } = Form.useFormContext();
  const series = (Form.useWatch('series', form) ?? []) as { deviceId?: string }[];
  return (
    <Form.List field="series">
      {(items, { add, remove }) => (
        <div className="ec-report-series" data-testid="report-form-series">
          {items.map((item, index) => (
            <div key={item.key} className="ec-report-series__row">
              <Form.Item field={`${item.field}.deviceId`} rules={[requiredRule()]} aria-label={t('form.device')}>
                <DeviceSelect placeholder={t('form.devicePlaceholder')} testId={`report-form-series-${index}-device`} />
              </Form.Item>
              <Form.Item field={`${item.field}.key`} rules={[requiredRule()]} aria-label={t('form.key')}>
                <KeyInput deviceId={series[index]?.deviceId} testId={`report-form-series-${index}-key`} />
              </Form.Item>
              <RemoveRowButton disabled={items.length <= 1} onClick={() => remove(index)} testId={`report-form-series-${index}-remove`} />
            </div>
          ))}
          <AddRowButton disabled={items.length >= REPORT_SERIES_MAX} onClick={() => add({})} testId="report-form-series-add">
            {t('form.addSeries', { count: items.length, max: REPORT_SERIES_MAX })}
          </AddRowButton>
        </div>
      )}
    </Form.List>
  );
}
