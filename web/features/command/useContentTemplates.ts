/** The starting content of the command form: a JSON type's template, a service's example inputs. */
import { useEffect, useRef } from 'react';
import type { FormInstance } from '@arco-design/web-react/es/Form';
import type { CommandType } from '../../../server/contract/command.ts';
import type { ThingModelTsl } from '../../../server/contract/thing-model.ts';
import { contentTemplate, initialParamInput, type CommandValues } from './commandForm.ts';

export function useContentTemplates(opts: {
  form: FormInstance<CommandValues>;
  commandType: CommandType;
  tcp: boolean;
  model: ThingModelTsl | null;
  /** ATTRIBUTE: the one property the template keeps. */
  presetProperty: string | undefined;
  service: ThingModelTsl['services'][number] | undefined;
}): void {
  const { form, commandType, tcp, model, presetProperty, service } = opts;
  const template = useRef('');

  // A JSON type starts from its template; text the user typed stays.
  useEffect(() => {
    if (tcp || commandType === 'SERVICE') return;
    const current = (form.getFieldValue('content') as string | undefined) ?? '';
    if (current.trim() && current !== template.current) return;
    let next = contentTemplate(commandType, model);
    if (commandType === 'ATTRIBUTE' && presetProperty) {
      const property = model?.properties.find((p) => p.identifier === presetProperty);
      const all = JSON.parse(next) as Record<string, unknown>;
      if (property && property.identifier in all) next = JSON.stringify({ [property.identifier]: all[property.identifier] }, null, 2);
    }
    template.current = next;
    form.setFieldValue('content', next);
  }, [commandType, tcp, model, form, presetProperty]);

  // A service starts with an example inside each input's range.
  useEffect(() => {
    if (!service) return;
    const params = Object.fromEntries(service.functionJson.inputData.map((p) => [p.identifier, initialParamInput(p.dataType)]));
    form.setFieldValue('params', params);
  }, [service, form]);
}
