/**
 * The key a widget binds: the bound device's published thing-model properties to choose from (the
 * unit comes along), or any key typed by hand (a device may report keys its model lacks).
 */
import { useEffect, useState, type JSX } from 'react';
import Select from '@arco-design/web-react/es/Select';
import { useTranslation } from 'react-i18next';
import type { ThingModelTsl } from '../../../server/contract/thing-model.ts';
import { getDevice } from '../device/deviceApi.ts';
import { exportTsl } from '../thing-model/thingModelApi.ts';

export interface KeyChoice {
  key: string;
  unit?: string;
}

function unitOf(p: ThingModelTsl['properties'][number]): string | undefined {
  const dt = p.functionJson.dataType;
  return dt.type === 'INT' || dt.type === 'DOUBLE' ? dt.specs.unit : undefined;
}

export function KeySelect(props: { deviceId: string | undefined; value: string | undefined; onChange: (choice: KeyChoice) => void }): JSX.Element {
  const { t } = useTranslation('visualization');
  const [model, setModel] = useState<ThingModelTsl | null>(null);
  useEffect(() => {
    setModel(null);
    if (!props.deviceId) return;
    let stopped = false;
    getDevice(props.deviceId)
      .then((d) => exportTsl(d.deviceProfileId, true, true))
      .then((m) => !stopped && setModel(m))
      // Nothing published, or the device is gone: keys are typed by hand.
      .catch(() => undefined);
    return () => {
      stopped = true;
    };
  }, [props.deviceId]);
  const properties = model?.properties ?? [];
  return (
    <Select
      value={props.value}
      allowCreate
      showSearch
      placeholder={t('props.keyPlaceholder')}
      onChange={(key: string) => {
        const p = properties.find((item) => item.identifier === key);
        props.onChange({ key, unit: p ? unitOf(p) : undefined });
      }}
      data-testid="vis-prop-key"
    >
      {properties.map((p) => (
        <Select.Option key={p.identifier} value={p.identifier}>
          {`${p.functionName} (${p.identifier})`}
        </Select.Option>
      ))}
    </Select>
  );
}
