/**
 * The Modbus polling figures: the built binary polls 200 Modbus TCP slaves (pymodbus, one process,
 * tests/helpers/modbus-slave.py `tcp-many`) with 50 points each in five separate blocks of ten input
 * registers (gaps wider than the bridging limit: five requests per slave and cycle), every second.
 * On time: requests answered within the cycle (the 1 s timeout) against the requests the period
 * asks for, from the gateway's own counters (GET /api/yt/device/{id}/tcp) over the measured window.
 * CPU and RSS are the gateway process's, from /proc (the slaves run in their own process).
 */
import { deviceRoutes } from '../../server/contract/device.ts';
import { modbusRoutes } from '../../server/contract/modbus.ts';
import { productRoutes } from '../../server/contract/product.ts';
import { thingModelRoutes } from '../../server/contract/thing-model.ts';
import { freePort, ModbusSlave } from '../../tests/helpers/modbus.ts';
import type { RowSpec } from './bench-row.ts';
import { startProvisionedGateway, type BenchGateway } from './bench-gateway.ts';
import { cpuMs, mb, MB, rssOf, sleep, watchRss } from './bench-measure.ts';

const SLAVES = 200;
const POINTS = 50;
const BLOCKS = 5;
/** Ten registers per block, the next block 20 registers on: a gap of 10 > the default bridging of 8. */
const BLOCK_STRIDE = 20;
const PERIOD_MS = 1000;
const WARMUP_MS = 10_000;
const RUN_MS = 30_000;

async function setUp(gw: BenchGateway, firstPort: number): Promise<string[]> {
  const { http } = gw;
  const product = await http.call(productRoutes.create, {
    body: { name: 'Bench-modbus', deviceType: 'DIRECT_CONNECTION', transportType: 'TCP', tcpProtocolType: 'MODBUS_RTU', tcpAuthType: 'REGISTER_SEND', pollIntervalMs: PERIOD_MS },
  });
  const perBlock = POINTS / BLOCKS;
  for (let i = 0; i < POINTS; i++) {
    const registerAddress = Math.floor(i / perBlock) * BLOCK_STRIDE + (i % perBlock);
    await http.call(thingModelRoutes.create, {
      body: {
        deviceProfileId: product.id,
        functionType: 'properties',
        functionName: `p${i}`,
        identifier: `p${i}`,
        accessMode: 'r',
        functionJson: { dataType: { type: 'INT', specs: { min: 0, max: 65535 } } },
        extensionDesc: { operationType: 'INPUT_REGISTER_READ', registerAddress, originalDataType: 'UINT16_AB' },
      },
    });
  }
  await http.call(thingModelRoutes.publish, { params: { deviceProfileId: product.id } });
  const ids: string[] = [];
  for (let i = 0; i < SLAVES; i++) {
    const device = await http.call(deviceRoutes.create, {
      body: { name: `mb-${i}`, deviceType: 'DIRECT_CONNECTION', deviceProfileId: product.id, modbusTcp: { host: '127.0.0.1', port: firstPort + i } },
    });
    ids.push(device.id);
  }
  return ids;
}

async function answered(gw: BenchGateway, ids: readonly string[]): Promise<{ polls: number; answered: number; timeouts: number }> {
  const sum = { polls: 0, answered: 0, timeouts: 0 };
  for (const id of ids) {
    const { counters } = await gw.http.call(modbusRoutes.link, { params: { id } });
    sum.polls += counters.polls;
    sum.answered += counters.answered;
    sum.timeouts += counters.timeouts;
  }
  return sum;
}

/** `SLAVES` consecutive free ports: the first of a run that nothing listens on. */
async function firstFreePort(): Promise<number> {
  const base = await freePort();
  return base + SLAVES < 65000 ? base : 20000;
}

export async function modbusRows(binary: string): Promise<RowSpec[]> {
  const firstPort = await firstFreePort();
  const slaves = await ModbusSlave.many(firstPort, SLAVES);
  const gw = await startProvisionedGateway(binary);
  try {
    const pid = gw.bin.pid;
    const ids = await setUp(gw, firstPort);
    await sleep(WARMUP_MS);
    const before = await answered(gw, ids);
    const cpu0 = cpuMs(pid);
    const { peak, after, seconds } = await watchRss(pid, RUN_MS);
    const cpuShare = (cpuMs(pid) - cpu0) / 10 / seconds;
    const end = await answered(gw, ids);
    const expected = SLAVES * BLOCKS * (seconds * 1000) / PERIOD_MS;
    const onTime = ((end.answered - before.answered) / expected) * 100;
    const note = `${SLAVES} pymodbus TCP slaves × ${POINTS} points in ${BLOCKS} blocks, every ${PERIOD_MS} ms, ${seconds.toFixed(0)} s after ${WARMUP_MS / 1000} s warm-up`;
    return [
      {
        id: 'modbusOnTimePct',
        figure: `Modbus polls answered on time (${SLAVES} TCP slaves × ${POINTS} points at 1 s)`,
        value: Math.min(onTime, 100),
        unit: '%',
        budget: 99,
        better: 'higher',
        note: `${note}: ${end.answered - before.answered} answered of ${Math.round(expected)} due, ${end.timeouts - before.timeouts} timeouts`,
      },
      {
        id: 'modbusGatewayCpuPct',
        figure: 'gateway CPU while polling 10,000 Modbus points per second',
        value: cpuShare,
        unit: '%',
        budget: 15,
        note: `${note}; /proc of the gateway process only`,
      },
      {
        id: 'modbusRssMb',
        figure: 'gateway RSS while polling 10,000 Modbus points per second',
        value: after.rss / MB,
        unit: 'MB',
        budget: 150,
        note: `${note}; peak ${mb(peak.rss)} MB, ${mb(rssOf(pid).anon)} MB anonymous`,
      },
    ];
  } finally {
    await gw.stop();
    await slaves.stop().catch(() => undefined);
    ModbusSlave.killAll();
  }
}
