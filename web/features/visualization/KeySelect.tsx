/**
 * The key a widget binds: typed, with the bound device's published thing-model properties offered
 * as suggestions (choosing one brings its unit along); any other key is taken as typed, since a
 * device may report keys its model lacks.
 */
import { useEffect, useId, useState, type JSX } from 'react';
import Input from '@arco-design/web-react/es/Input';
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

export interface KeySelectProps {
  deviceId: string | undefined;
  value: string | undefined;
  onChange: (choice: KeyChoice) => void;
  /** The model's unit of the key as it is now, whenever the model or the key changes (typed before the model arrived too). */
  onModelUnit: (key: string, unit: string) => void;
}

export function KeySelect(props: KeySelectProps): JSX.Element {
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
  const { value, onModelUnit } = props;
  useEffect(() => {
    const p = value ? model?.properties.find((item) => item.identifier === value) : undefined;
    const unit = p && unitOf(p);
    if (value && unit) onModelUnit(value, unit);
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- the callback is new on every render; the model and the key decide.
  }, [model, value]);
  const listId = `vis-keys-${useId().replace(/:/g, '')}`;
  return (
    <>
      <Input
        value={props.value ?? ''}
        placeholder={t('props.keyPlaceholder')}
        onChange={(key: string) => {
          const p = properties.find((item) => item.identifier === key);
          props.onChange({ key, unit: p ? unitOf(p) : undefined });
        }}
        list={listId}
        autoComplete="off"
        data-testid="vis-prop-key"
      />
      <datalist id={listId}>
        {properties.map((p) => (
          <option key={p.identifier} value={p.identifier}>
            {p.functionName}
          </option>
        ))}
      </datalist>
    </>
  );
}
