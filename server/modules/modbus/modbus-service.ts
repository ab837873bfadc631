/**
 * The Modbus calls of server/contract/modbus.ts: link view, points with live values, read now,
 * write, request plan. Rules and refusals are listed there.
 */
import type { ModbusPlan, ModbusPoint, ModbusPointList, ModbusReadResult, ModbusWriteBody, ModbusWriteResult, PointReading, TcpLink } from '../../contract/modbus.ts';
import type { Language } from '../../contract/languages.ts';
import { violationError } from '../../lib/field-errors.ts';
import type { Services } from '../../module.ts';
import type { PublishedProperty } from '../thing-model/published-model.ts';
import { outcomeMessage, type ModbusMaster } from './modbus-master.ts';
import { planRequests, readFunctionOf } from './request-plan.ts';
import type { PointState } from './slave-poller.ts';

export interface ModbusServiceDeps extends Pick<Services, 'devices' | 'products' | 'thingModels' | 'tcpAccess'> {
  master: ModbusMaster;
}

const writeOperations = new Set(['COIL_WRITE', 'COIL_READ_WRITE', 'HOLDING_REGISTER_WRITE', 'HOLDING_REGISTER_READ_WRITE']);
const empty: PointState = { value: null, ts: null, outcome: null, exceptionCode: null };

export class ModbusService {
  constructor(private readonly deps: ModbusServiceDeps) {}

  link(deviceId: string): TcpLink {
    this.deps.devices.get(deviceId);
    return this.deps.master.linkView(deviceId);
  }

  points(deviceId: string, lang: Language): ModbusPointList {
    const { profileId, properties } = this.modbusDevice(deviceId);
    const poller = this.deps.master.pollers.get(deviceId);
    const items: ModbusPoint[] = properties.map((p) => {
      const d = p.extensionDesc!;
      return {
        ...this.reading(p.identifier, poller?.points.get(p.identifier) ?? empty, lang),
        name: p.functionName,
        accessMode: p.accessMode,
        writable: writeOperations.has(d.operationType),
        polled: readFunctionOf(d) !== undefined,
        extensionDesc: d,
      };
    });
    return { pollIntervalMs: this.deps.products.get(profileId).pollIntervalMs, items };
  }

  async read(deviceId: string, identifiers: readonly string[] | undefined, lang: Language): Promise<ModbusReadResult> {
    const { properties } = this.modbusDevice(deviceId);
    const polled = properties.filter((p) => readFunctionOf(p.extensionDesc!) !== undefined);
    const unknown = (identifiers ?? []).filter((id) => !polled.some((p) => p.identifier === id));
    if (unknown.length) throw violationError(unknown.map((id) => ({ field: 'identifiers', key: 'error.modbus.unknownPoint', params: { identifier: id } })));
    const wanted = identifiers ? new Set(identifiers) : undefined;
    const poller = this.deps.master.pollers.get(deviceId);
    if (poller) await poller.readNow(wanted);
    const items: PointReading[] = polled
      .filter((p) => !wanted || wanted.has(p.identifier))
      .map((p) => {
        const state = poller ? (poller.points.get(p.identifier) ?? empty) : { ...empty, outcome: 'NOT_CONNECTED' as const };
        return this.reading(p.identifier, state, lang);
      });
    return { items };
  }

  async write(deviceId: string, body: ModbusWriteBody, lang: Language): Promise<ModbusWriteResult> {
    const { properties } = this.modbusDevice(deviceId);
    const property = properties.find((p) => p.identifier === body.identifier);
    const params = { identifier: body.identifier, type: property?.extensionDesc?.originalDataType ?? '' };
    if (!property) throw violationError([{ field: 'identifier', key: 'error.modbus.unknownPoint', params }]);
    if (!writeOperations.has(property.extensionDesc!.operationType)) throw violationError([{ field: 'identifier', key: 'error.modbus.notWritable', params }]);
    const result = await this.deps.master.write(deviceId, { identifier: property.identifier, descriptor: property.extensionDesc! }, body.value);
    if (result === 'invalid') throw violationError([{ field: 'value', key: 'error.modbus.valueInvalid', params }]);
    return this.deps.master.writeResult(lang, body.identifier, result);
  }

  plan(deviceProfileId: string, source: 'published' | 'draft'): ModbusPlan {
    const product = this.deps.products.get(deviceProfileId);
    const properties =
      source === 'published'
        ? (this.deps.thingModels.getPublished(deviceProfileId)?.properties ?? [])
        : this.deps.thingModels.exportTsl(deviceProfileId, false).properties;
    const points = properties.flatMap((p) => (p.extensionDesc ? [{ identifier: p.identifier, descriptor: p.extensionDesc }] : []));
    return {
      pollIntervalMs: product.pollIntervalMs,
      modbusGapMax: product.modbusGapMax,
      requests: planRequests(points, product.modbusGapMax),
      writeOnly: points.filter((p) => readFunctionOf(p.descriptor) === undefined).map((p) => p.identifier),
    };
  }

  private reading(identifier: string, s: PointState, lang: Language): PointReading {
    return {
      identifier,
      value: s.value,
      ts: s.ts,
      outcome: s.outcome,
      exceptionCode: s.exceptionCode,
      message: s.outcome ? outcomeMessage(lang, s.outcome, s.exceptionCode) : null,
    };
  }

  /** The device's product's published Modbus properties; refused for a device that is not Modbus. */
  private modbusDevice(deviceId: string): { profileId: string; properties: PublishedProperty[] } {
    const device = this.deps.devices.get(deviceId);
    const product = this.deps.products.get(device.deviceProfileId);
    if (product.transportType !== 'TCP' || product.tcpProtocolType !== 'MODBUS_RTU') {
      throw violationError([{ field: '', key: 'error.modbus.notModbus' }], '');
    }
    const model = this.deps.thingModels.getPublished(product.id);
    return { profileId: product.id, properties: (model?.properties ?? []).filter((p) => p.extensionDesc) };
  }
}
