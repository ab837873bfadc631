/**
 * mosquitto (scripts/lib/mosquitto.ts) for integration tests: removed after each test unless
 * `untilStopped` (an e2e file shares one broker across its steps and removes it itself).
 */
import { afterEach } from 'vitest';
import { Mosquitto } from '../../scripts/lib/mosquitto.ts';

export { Mosquitto };

const running: Mosquitto[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.remove();
});

export async function startMosquitto(extraConfig: string[] = [], { untilStopped = false } = {}): Promise<Mosquitto> {
  const broker = await Mosquitto.start(extraConfig);
  if (!untilStopped) running.push(broker);
  return broker;
}
