/**
 * The Modbus master (server/contract/modbus.ts): polls the Modbus points of slaves behind DTUs
 * (RTU over the TCP access connections) and Modbus TCP devices, stores their values as telemetry,
 * turns writes and ATTRIBUTE / SERVICE commands into register and coil writes, and answers the
 * device page's link and points calls and the product page's request plan and point table.
 */
import { defineModule } from '../../module.ts';
import { ModbusMaster } from './modbus-master.ts';
import { registerModbusRoutes } from './modbus-routes.ts';
import { ModbusService } from './modbus-service.ts';

declare module '../../module.ts' {
  interface Services {
    modbus: ModbusService;
    modbusMaster: ModbusMaster;
  }
  interface Tuning {
    /** How long a Modbus slave has to answer one request (default 1 s; tests shorten it). */
    modbusTimeoutMs?: number;
  }
}

export const modbusModule = defineModule({
  name: 'modbus',
  needs: ['devices', 'products', 'telemetry', 'thingModels', 'transport', 'tcpAccess'],
  apiTags: {
    'tcp-device': 'TCP device access: a device link (DTU or Modbus TCP), its counters, its Modbus points, read now and write',
    modbus: "Modbus: a product's request plan and its point table as a spreadsheet",
  },
  build: ({ core, log, tuning, services }) => {
    const modbusMaster = new ModbusMaster({ ...services, bus: core.bus, log, timeoutMs: tuning.modbusTimeoutMs });
    return { modbusMaster, modbus: new ModbusService({ ...services, master: modbusMaster }) };
  },
  routes: registerModbusRoutes,
  start: ({ modbusMaster }) => modbusMaster.start(),
  close: ({ modbusMaster }) => modbusMaster.close(),
});
