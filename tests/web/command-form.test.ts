import { describe, expect, it } from 'vitest';
import type { ThingModelTsl } from '../../server/contract/thing-model.ts';
import { prepareCommand, type CommandModelChecks, type ModelVerdict } from '../../server/modules/command/command-content.ts';
import { checkPropertyWrite, checkServiceInput } from '../../server/modules/thing-model/thing-model-check.ts';
import type { PublishedModel } from '../../server/modules/thing-model/published-model.ts';
import { simulatorTsl } from '../../scripts/lib/simulator-model.ts';
import {
  commandBody,
  contentTemplate,
  initialParamInput,
  jsonContentProblem,
  rawContentProblem,
  paramValue,
  type CommandValues,
} from '../../web/features/command/commandForm.ts';

const tsl = { ...simulatorTsl, format: 'edge-console/thing-model-tsl@1', deviceProfileId: 'p', productName: 'Sim', version: 1, exportedTime: 0 } as ThingModelTsl;
const published: PublishedModel = {
  deviceProfileId: 'p',
  version: 1,
  publishedTime: 0,
  properties: tsl.properties.map((p) => ({ ...p, dataType: p.functionJson.dataType, extensionDesc: null })),
  services: tsl.services.map((s) => ({ ...s, ...s.functionJson })),
  events: tsl.events.map((e) => ({ ...e, ...e.functionJson })),
};
const verdict = (r: { ok: boolean; reason?: string }): ModelVerdict => (r.ok ? { ok: true } : { ok: false, reason: r.reason ?? '' });
const models: CommandModelChecks = {
  checkService: (_p, id, params) => verdict(checkServiceInput(published, id, params)),
  checkProperty: (_p, key, value) => verdict(checkPropertyWrite(published, key, value)),
};
const mqtt = { id: 'p', transportType: 'MQTT' as const };
const tcp = { id: 'p', transportType: 'TCP' as const };

function serverRefusal(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (err) {
    return (err as { key?: string }).key ?? 'thrown';
  }
}

const none = { services: [], properties: [] };
const base: CommandValues = { commandType: 'CUSTOM', callType: 'SYNC', way: 'twoway', timeoutSeconds: 5 };

describe('command delivery form', () => {
  it('builds SERVICE content from the service inputs that the published model accepts', () => {
    const service = tsl.services[0]!;
    const params = Object.fromEntries(service.functionJson.inputData.map((p) => [p.identifier, initialParamInput(p.dataType)]));
    const body = commandBody({ ...base, commandType: 'SERVICE', service: service.identifier, params }, false, tsl);
    // A BOOL starts off (its switch), not with a made-up example.
    expect(JSON.parse(String(body.content))).toEqual({ method: 'setSwitch', params: { on: false } });
    expect(body.timeoutMs).toBe(5000);
    expect(prepareCommand(body, mqtt, models)).toMatchObject({ method: 'setSwitch', params: { on: false } });
    const on = commandBody({ ...base, commandType: 'SERVICE', service: service.identifier, params: { on: '1' } }, false, tsl);
    expect(JSON.parse(String(on.content)).params).toEqual({ on: true });
  });

  it('starts ATTRIBUTE content with the writable properties only, which the server accepts', () => {
    const content = contentTemplate('ATTRIBUTE', tsl);
    expect(JSON.parse(content)).toEqual({ switch: true });
    expect(jsonContentProblem(content, 'ATTRIBUTE')).toBeNull();
    const body = commandBody({ ...base, commandType: 'ATTRIBUTE', content }, false, none);
    expect(prepareCommand(body, mqtt, models)).toMatchObject({ method: 'setAttributes', params: { switch: true } });
  });

  it('sets a writable property from its typed value, or takes raw JSON when asked for it', () => {
    const body = commandBody({ ...base, commandType: 'ATTRIBUTE', property: 'switch', propertyValue: '1' }, false, tsl);
    expect(JSON.parse(String(body.content))).toEqual({ switch: true });
    expect(prepareCommand(body, mqtt, models)).toMatchObject({ method: 'setAttributes', params: { switch: true } });
    const raw = commandBody({ ...base, commandType: 'ATTRIBUTE', property: 'switch', propertyValue: '1', rawJson: true, content: '{"switch": false}' }, false, tsl);
    expect(JSON.parse(String(raw.content))).toEqual({ switch: false });
  });

  it('leaves numbers, text and enums empty to start with, and builds a STRUCT from its members', () => {
    expect(initialParamInput({ type: 'INT', specs: { min: 1000, max: 2000, step: 1 } })).toBeUndefined();
    expect(initialParamInput({ type: 'ENUM', specs: [{ value: 1, description: 'one' }] })).toBeUndefined();
    const struct = {
      type: 'STRUCT' as const,
      specs: [
        { identifier: 'level', functionName: 'Level', dataType: { type: 'INT' as const, specs: { min: 0, max: 9 } } },
        { identifier: 'on', functionName: 'On', dataType: { type: 'BOOL' as const, specs: { '0': 'off', '1': 'on' } } },
      ],
    };
    expect(initialParamInput(struct)).toEqual({ level: undefined, on: '0' });
    expect(paramValue(struct, { level: 3, on: '1' })).toEqual({ level: 3, on: true });
    // A scene saved before the members had fields holds the STRUCT as JSON text.
    expect(paramValue(struct, '{"level": 2, "on": false}')).toEqual({ level: 2, on: false });
  });

  it('starts CUSTOM and API content as a method call the server accepts', () => {
    for (const type of ['CUSTOM', 'API'] as const) {
      const content = contentTemplate(type, null);
      expect(jsonContentProblem(content, type)).toBeNull();
      expect(serverRefusal(() => prepareCommand(commandBody({ ...base, commandType: type, content }, false, none), mqtt, models))).toBeNull();
    }
  });

  it('says "JSON parsing failed" where the server would, and asks for an object with a method', () => {
    const cases: [string, string | null][] = [
      ['{"method": ', 'error.command.jsonInvalid'],
      ['[1, 2]', 'error.command.methodRequired'],
      ['{"params": {}}', 'error.command.methodRequired'],
    ];
    for (const [content, serverKey] of cases) {
      expect(serverRefusal(() => prepareCommand({ ...base, content }, mqtt, models))).toBe(serverKey);
    }
    expect(jsonContentProblem('{"method": ', 'CUSTOM')).toBe('http:jsonInvalid');
    expect(jsonContentProblem('[1, 2]', 'CUSTOM')).toBe('command:form.objectRequired');
    expect(jsonContentProblem('{"params": {}}', 'CUSTOM')).toBe('errors:command.methodRequired');
    expect(jsonContentProblem('{}', 'ATTRIBUTE')).toBe('command:form.objectRequired');
    expect(jsonContentProblem('  ', 'CUSTOM')).toBe('errors:field.required');
  });

  it('checks ASCII and HEX text for TCP devices as the server does', () => {
    const send = (content: string, format: 'HEX' | 'ASCII'): string | null =>
      serverRefusal(() => prepareCommand(commandBody({ ...base, content, format }, true, none), tcp, models));
    for (const [content, format] of [['01 03 0A ff', 'HEX'], ['ABC', 'HEX'], ['0G', 'HEX'], ['AT+RST\r\n', 'ASCII'], ['bell\u0007', 'ASCII']] as const) {
      const client = rawContentProblem(content, format);
      expect([content, client === null]).toEqual([content, send(content, format) === null]);
    }
    expect(rawContentProblem('ABC', 'HEX')).toBe('errors:command.hexInvalid');
    expect(rawContentProblem('bell\u0007', 'ASCII')).toBe('errors:command.asciiInvalid');
    expect(prepareCommand(commandBody({ ...base, content: '01 03 0a ff', format: 'HEX' }, true, none), tcp, models).content).toBe('01030AFF');
  });

  it('sends no timeout for one-way commands', () => {
    expect(commandBody({ ...base, way: 'oneway', content: '{"method":"m"}' }, false, none)).not.toHaveProperty('timeoutMs');
  });
});
