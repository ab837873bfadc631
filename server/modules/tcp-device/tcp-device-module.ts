/** TCP device access: the `--tcp-port` server and the registry of its connections (tcp-device-service.ts). */
import { defineModule } from '../../module.ts';
import { TcpDeviceService } from './tcp-device-service.ts';

declare module '../../module.ts' {
  interface Services {
    tcpAccess: TcpDeviceService;
  }
  interface Tuning {
    /** How long a new TCP connection may take to register (default 10 s; tests shorten it). */
    tcpIdentifyTimeoutMs?: number;
  }
}

export const tcpDeviceModule = defineModule({
  name: 'tcp-device',
  needs: ['devices', 'transport'],
  build: ({ core, log, tuning, services }) => ({
    tcpAccess: new TcpDeviceService({
      bus: core.bus,
      log,
      host: core.config.host,
      port: core.config.tcpPort,
      identifyTimeoutMs: tuning.tcpIdentifyTimeoutMs,
      devices: services.devices,
      transport: services.transport,
    }),
  }),
  start: ({ tcpAccess }) => tcpAccess.start(),
  close: ({ tcpAccess }) => tcpAccess.close(),
});
