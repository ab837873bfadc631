/** The device record the TCP access server and the Modbus master work from (DeviceService.tcpDevices). */
import type { DeviceType, TcpAuthType, TcpProtocolType } from '../../contract/product.ts';
import type { ModbusTcpTarget } from '../../contract/tcp-device.ts';

/**
 * A device of a TCP product as the TCP access server and the Modbus master see it.
 * `registrationHex`: the bytes it registers with (its registration string; never its access token).
 */
export interface TcpDevice {
  id: string;
  name: string;
  deviceType: DeviceType;
  deviceProfileId: string;
  gatewayId: string | null;
  addressCode: string | null;
  registrationHex: string | null;
  modbusTcp: ModbusTcpTarget | null;
  tcpProtocolType: TcpProtocolType;
  tcpAuthType: TcpAuthType;
  pollIntervalMs: number;
  modbusGapMax: number;
}
