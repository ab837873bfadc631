/** TCP device access: the `--tcp-port` server and the registry of its connections (tcp-device-service.ts). */
import { defineModule } from '../../module.ts';
import { TcpDeviceService } from './tcp-device-service.ts';

declare module '../../module.ts' {
  interface Services {
    tcpAccess: TcpDeviceService;
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
      limits: tuning.tcp,
      devices: services.devices,
      transport: services.transport,
    }),
  }),
  start: ({ tcpAccess }) => tcpAccess.start(),
  close: ({ tcpAccess }) => tcpAccess.close(),
});
