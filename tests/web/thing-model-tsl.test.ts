import { describe, expect, it } from 'vitest';
import { deviceTopics } from '../../server/contract/device-api.ts';
import type { DataType, ThingModelTsl } from '../../server/contract/thing-model.ts';
import { simulatorTsl } from '../../scripts/lib/simulator-model.ts';
import { checkValue } from '../../server/modules/thing-model/thing-model-check.ts';
import { exampleValue, topicExamples } from '../../web/features/thing-model/topicExamples.ts';
import { importProblems, parseTsl } from '../../web/features/thing-model/tslImport.ts';
import { tslFileName } from '../../web/features/thing-model/TslModal.tsx';

/** The simulator's model as the console reads it (its literal is typed as an import body). */
const model = simulatorTsl as unknown as ThingModelTsl;

describe('TSL import file', () => {
  it('reads the three groups and counts them, refusing text that is not a JSON object', () => {
    const parsed = parseTsl(`\uFEFF${JSON.stringify({ format: 'x', ...simulatorTsl })}`);
    expect(parsed).toMatchObject({ ok: true, counts: { properties: 3, services: 1, events: 1 } });
    expect(parseTsl('{"properties": [').ok).toBe(false);
    expect(parseTsl('[1]').ok).toBe(false);
  });

  it('locates each refusal in the file by group, entry and identifier', () => {
    const body = { properties: [{ identifier: 'a' }, { identifier: 'temperature' }], events: [] };
    const problems = importProblems(
      [
        { field: 'body.properties.1.functionJson.dataType.specs.max', key: 'error.thingModel.number.maxBelowMin', message: '' },
        { field: 'body.properties.1.identifier', key: 'error.thingModel.identifierDuplicate', message: '' },
        { field: 'body.services', key: 'error.thingModel.tsl.group', message: '' },
      ],
      body,
    );
    expect(problems).toEqual([
      { group: 'properties', index: 1, identifier: 'temperature', path: 'functionJson.dataType.specs.max', key: 'thingModel.number.maxBelowMin', params: { identifier: 'temperature' } },
      { group: 'properties', index: 1, identifier: 'temperature', path: 'identifier', key: 'thingModel.identifierDuplicate', params: { identifier: 'temperature' } },
      { group: 'services', index: null, identifier: null, path: '', key: 'thingModel.tsl.group', params: {} },
    ]);
  });

  it('names the export file after the product and version', () => {
    expect(tslFileName({ productName: '温湿度 传感器/A', version: 3 })).toBe('温湿度_传感器_A-v3.tsl.json');
    expect(tslFileName({ productName: 'X', version: null })).toBe('X-draft.tsl.json');
  });
});

describe('topic examples from the thing model', () => {
  it('gives values the published model accepts for every data type', () => {
    const types: DataType[] = [
      { type: 'INT', specs: { min: -10, max: 10, step: 5 } },
      { type: 'DOUBLE', specs: { min: -40, max: 125, step: 0.1 } },
      { type: 'DOUBLE', specs: { min: 0.5, max: 0.9, step: 0.25 } },
      { type: 'INT', specs: { min: 7, max: 7 } },
      { type: 'TEXT', specs: { length: 4 } },
      { type: 'BOOL', specs: { '0': 'off', '1': 'on' } },
      { type: 'ENUM', specs: [{ value: 3, description: 'x' }] },
      { type: 'STRUCT', specs: [{ identifier: 'n', functionName: 'n', dataType: { type: 'INT', specs: { min: 0, max: 9 } } }] },
    ];
    for (const dataType of types) {
      expect([dataType.type, checkValue(dataType, exampleValue(dataType), 'v')]).toEqual([dataType.type, { ok: true }]);
    }
  });

  it('lists telemetry, events, commands and their answers, and gateway topics only for gateways', () => {
    const rows = topicExamples(model, 'DIRECT_CONNECTION');
    expect(rows.map((r) => [r.topic, r.direction, r.subject ?? null])).toEqual([
      [deviceTopics.telemetry, 'publish', null],
      [deviceTopics.attributes, 'publish', null],
      [deviceTopics.events, 'publish', 'overheat'],
      [`${deviceTopics.rpcRequest}+`, 'subscribe', 'setSwitch'],
      [`${deviceTopics.rpcResponse}1`, 'publish', 'setSwitch'],
      [`${deviceTopics.rpcRequest}+`, 'subscribe', 'setAttributes'],
    ]);
    expect(rows[3]!.payload).toEqual({ id: 1, method: 'setSwitch', params: { on: true } });
    expect(rows[5]!.payload).toMatchObject({ params: { switch: true } });
    expect(topicExamples(model, 'GATEWAY').map((r) => r.topic)).toContain(deviceTopics.gatewayTelemetry);
  });
});
