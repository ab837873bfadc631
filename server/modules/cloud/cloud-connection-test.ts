/**
 * One MQTT CONNECT to the cloud's broker with the given settings, answered by its CONNACK in words
 * (the configuration page's "test connection"). Nothing is stored and the connection is closed at
 * once. It stands in for the cloud connector's own test until that connector lands; both answer
 * `{ ok, code, message }` (server/contract/cloud.ts) within CLOUD_TEST_TIMEOUT_MS.
 */
import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import mqttPacket, { type IConnackPacket } from 'mqtt-packet';
import type { CloudConfig, CloudTestResult } from '../../contract/cloud.ts';

export const CLOUD_TEST_TIMEOUT_MS = 10_000;
/** The MQTT port that means TLS without being told (ThingsBoard's and the gateway's own). */
const MQTTS_PORT = 8883;

/** MQTT 3.1.1's CONNACK return codes in words. */
const connackWords: Record<number, string> = {
  0: 'connection accepted',
  1: 'refused: unacceptable protocol version',
  2: 'refused: client identifier rejected',
  3: 'refused: server unavailable',
  4: 'refused: bad user name or password',
  5: 'refused: not authorized',
};

/** `code` -1: no CONNACK at all (no route, refused, TLS failure, timeout); the message says which. */
function failed(message: string): CloudTestResult {
  return { ok: false, code: -1, message };
}

export function testCloudConnection(config: CloudConfig, clientId: string): Promise<CloudTestResult> {
  const tls = config.platformTls === true || config.platformPort === MQTTS_PORT;
  return new Promise((resolve) => {
    let socket: Socket;
    const finish = (result: CloudTestResult): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => finish(failed(`no answer within ${CLOUD_TEST_TIMEOUT_MS / 1000} s`)), CLOUD_TEST_TIMEOUT_MS);
    const sendConnect = (): void => {
      socket.write(
        mqttPacket.generate({
          cmd: 'connect',
          protocolId: 'MQTT',
          protocolVersion: 4,
          clean: true,
          keepalive: 30,
          clientId,
          username: config.platformKey,
          ...(config.platformSecret ? { password: Buffer.from(config.platformSecret) } : {}),
        }),
      );
    };
    socket = tls
      ? tlsConnect({ host: config.platformAddress, port: config.platformPort, servername: config.platformAddress }, sendConnect)
      : tcpConnect({ host: config.platformAddress, port: config.platformPort }, sendConnect);
    const parser = mqttPacket.parser({ protocolVersion: 4 });
    parser.on('packet', (packet) => {
      if (packet.cmd !== 'connack') return finish(failed(`unexpected ${packet.cmd} instead of CONNACK`));
      const code = (packet as IConnackPacket).returnCode ?? 0;
      finish({ ok: code === 0, code, message: connackWords[code] ?? `refused with code ${code}` });
    });
    parser.on('error', (err) => finish(failed(`not an MQTT answer: ${err.message}`)));
    socket.on('data', (chunk: Buffer) => parser.parse(chunk));
    socket.on('error', (err) => finish(failed(err.message)));
    socket.on('close', () => finish(failed('the broker closed the connection without a CONNACK')));
  });
}
