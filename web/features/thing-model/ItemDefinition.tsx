/**
 * One line saying what an item is: a property's access mode and data type with its range, unit,
 * names or items; a service's call type and parameter counts; an event's type and outputs.
 */
import type { JSX } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataType, ThingModelItem } from '../../../server/contract/thing-model.ts';

/** A data type in a few words (`DOUBLE -40 ~ 125 °C`, `BOOL 0 关 / 1 开`). */
export function useDataTypeText(): (dataType: DataType | undefined) => string {
  const { t } = useTranslation('thingModel');
  return (dataType) => {
    if (!dataType) return '';
    const name = t(`dataType.${dataType.type}`);
    switch (dataType.type) {
      case 'INT':
      case 'DOUBLE': {
        const { min, max, step, unit } = dataType.specs;
        const stepText = step !== undefined ? ` · ${t('definition.step', { step })}` : '';
        return `${name} · ${min} ~ ${max}${unit ? ` ${unit}` : ''}${stepText}`;
      }
      case 'TEXT':
        return `${name} · ${t('definition.length', { length: dataType.specs.length })}`;
      case 'BOOL':
        return `${name} · 0 ${dataType.specs['0']} / 1 ${dataType.specs['1']}`;
      case 'ENUM': {
        const shown = dataType.specs.slice(0, 3).map((e) => `${e.value} ${e.description}`).join(', ');
        return `${name} · ${shown}${dataType.specs.length > 3 ? ` … ${t('definition.items', { count: dataType.specs.length })}` : ''}`;
      }
      case 'STRUCT':
        return `${name} · ${t('definition.members', { count: dataType.specs.length })}`;
    }
  };
}

export function ItemDefinition({ item }: { item: ThingModelItem }): JSX.Element {
  const { t } = useTranslation('thingModel');
  const dataTypeText = useDataTypeText();
  let text: string;
  if (item.functionType === 'properties') {
    text = `${item.accessMode ? t(`accessMode.${item.accessMode}`) : ''} · ${dataTypeText(item.functionJson.dataType)}`;
  } else if (item.functionType === 'services') {
    text = [
      item.callType ? t(`callType.${item.callType}`) : '',
      t('definition.inputs', { count: item.functionJson.inputData?.length ?? 0 }),
      t('definition.outputs', { count: item.functionJson.outputData?.length ?? 0 }),
    ].join(' · ');
  } else {
    text = [item.eventType ? t(`eventType.${item.eventType}`) : '', t('definition.outputs', { count: item.functionJson.outputData?.length ?? 0 })].join(' · ');
  }
  const modbus = item.extensionDesc ? ` · Modbus 0x${item.extensionDesc.registerAddress.toString(16).toUpperCase().padStart(4, '0')}` : '';
  return <span className="ec-tm-definition">{`${text}${modbus}`}</span>;
}
