/** The device MQTT broker of an e2e gateway (it runs with --mqtt-port 0 and prints the port it got). */
import { expect } from 'vitest';
import type { E2eGateway } from './e2e-gateway.ts';
import { E2E_POLL } from './e2e-wait.ts';

const PORT_LINE = /device MQTT on port (\d+)/;

export async function e2eMqttUrl(gateway: E2eGateway): Promise<string> {
  await expect.poll(() => PORT_LINE.test(gateway.output()), E2E_POLL).toBe(true);
  return `mqtt://127.0.0.1:${PORT_LINE.exec(gateway.output())![1]}`;
}
