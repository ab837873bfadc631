/**
 * The starting content of the command form: a JSON type's template, the JSON the typed inputs
 * made when the operator turns to raw JSON, a service's starting inputs.
 */
import { useEffect, useRef } from 'react';
import type { FormInstance } from '@arco-design/web-react/es/Form';
import type { CommandType } from '../../../server/contract/command.ts';
import type { ThingModelTsl } from '../../../server/contract/thing-model.ts';
import { prettyJson } from '../../components/CodeBlock.tsx';
import { contentTemplate, formContent, initialParamInput, writableProperties, type CommandValues } from './commandForm.ts';

export function useContentTemplates(opts: {
  form: FormInstance<CommandValues>;
  commandType: CommandType;
  tcp: boolean;
  model: ThingModelTsl | null;
  rawJson: boolean;
  service: ThingModelTsl['services'][number] | undefined;
  /** ATTRIBUTE: the chosen writable property. */
  property: ThingModelTsl['properties'][number] | undefined;
}): void {
  const { form, commandType, tcp, model, rawJson, service, property } = opts;
  const template = useRef('');

  // The JSON field starts from a template, or from what the form made; text the user typed stays.
  useEffect(() => {
    const fromModel = commandType === 'SERVICE' || (commandType === 'ATTRIBUTE' && writableProperties(model).length > 0);
    if (tcp || (fromModel && !rawJson)) return;
    const current = (form.getFieldValue('content') as string | undefined) ?? '';
    if (current.trim() && current !== template.current) return;
    // Named fields: with the typed inputs unmounted, a bare getFieldsValue() leaves their values out.
    const typed = form.getFieldsValue(['service', 'params', 'property', 'propertyValue']);
    const made = fromModel ? formContent({ ...typed, commandType, rawJson: false } as CommandValues, model ?? { services: [], properties: [] }) : null;
    const next = made ? prettyJson(made) : contentTemplate(commandType, model);
    template.current = next;
    form.setFieldValue('content', next);
  }, [commandType, tcp, model, form, rawJson]);

  // A service starts with each input empty (a BOOL off) for the operator to fill in.
  useEffect(() => {
    if (!service) return;
    const params = Object.fromEntries(service.functionJson.inputData.map((p) => [p.identifier, initialParamInput(p.dataType)]));
    form.setFieldValue('params', params);
  }, [service, form]);

  // A property starts empty too (a BOOL off), whichever was chosen before.
  useEffect(() => {
    form.setFieldValue('propertyValue', property ? initialParamInput(property.functionJson.dataType) : undefined);
  }, [property, form]);
}
