/**
 * The Modbus polling figures. Modbus TCP: the built binary polls 200 Modbus TCP slaves (pymodbus, one process,
 * tests/helpers/modbus-slave.py `tcp-many`) with 50 points each in five separate blocks of ten input
 * registers (gaps wider than the bridging limit: five requests per slave and cycle), every second.
 * On time: requests answered within the cycle (the 1 s timeout) against the requests the period
 * asks for, from the gateway's own counters (GET /api/yt/device/{id}/tcp) over the measured window.
 * CPU and RSS are the gateway process's, from /proc (the slaves run in their own process).
 * DTUs: 20 REGISTER_SEND DTUs (pymodbus RTU framer, one process, `dtu-many`) with 8 slaves each on
 * their bus, the same 50 points per slave at 1 s, RTU over the TCP access port.
 */
import { deviceRoutes } from '../../server/contract/device.ts';
import { modbusRoutes } from '../../server/contract/modbus.ts';
import { productRoutes } from '../../server/contract/product.ts';
import { thingModelRoutes } from '../../server/contract/thing-model.ts';
import { freePort, ModbusSlave } from '../../tests/helpers/modbus.ts';
import type { RowSpec } from './bench-row.ts';
import { startProvisionedGateway, type BenchGateway } from './bench-gateway.ts';
import { cpuMs, mb, MB, sleep, watchRss } from './bench-measure.ts';

const SLAVES = 200;
const DTUS = 20;
const DTU_SLAVES = 8;
const POINTS = 50;
const BLOCKS = 5;
/** Ten registers per block, the next block 20 registers on: a gap of 10 > the default bridging of 8. */
const BLOCK_STRIDE = 20;
const PERIOD_MS = 1000;
const WARMUP_MS = 10_000;
const RUN_MS = 30_000;

/** A published Modbus product of `deviceType` with the bench's 50 points; its id. */
async function pointsProduct(http: BenchGateway['http'], name: string, deviceType: 'DIRECT_CONNECTION' | 'SENSOR'): Promise<string> {
  const product = await http.call(productRoutes.create, {
    body: { name, deviceType, transportType: 'TCP', tcpProtocolType: 'MODBUS_RTU', tcpAuthType: 'REGISTER_SEND', pollIntervalMs: PERIOD_MS },
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
  return product.id;
}

async function setUp(gw: BenchGateway, firstPort: number): Promise<string[]> {
  const productId = await pointsProduct(gw.http, 'Bench-modbus', 'DIRECT_CONNECTION');
  const ids: string[] = [];
  for (let i = 0; i < SLAVES; i++) {
    const device = await gw.http.call(deviceRoutes.create, {
      body: { name: `mb-${i}`, deviceType: 'DIRECT_CONNECTION', deviceProfileId: productId, modbusTcp: { host: '127.0.0.1', port: firstPort + i } },
    });
    ids.push(device.id);
  }
  return ids;
}

/** DTU gateways registering as `DTU000`… with DTU_SLAVES sensors each (address codes 01…); the sensors' ids. */
async function setUpDtus(gw: BenchGateway): Promise<string[]> {
  const { http } = gw;
  const sensorProduct = await pointsProduct(http, 'Bench-modbus-rtu', 'SENSOR');
  const gatewayProduct = await http.call(productRoutes.create, {
    body: { name: 'Bench-dtu', deviceType: 'GATEWAY', transportType: 'TCP', tcpProtocolType: 'CUSTOM', tcpAuthType: 'REGISTER_SEND' },
  });
  const ids: string[] = [];
  for (let d = 0; d < DTUS; d++) {
    const name = `DTU${String(d).padStart(3, '0')}`;
    const gateway = await http.call(deviceRoutes.create, {
      body: { name, deviceType: 'GATEWAY', deviceProfileId: gatewayProduct.id, registration: { format: 'ASCII', value: name } },
    });
    for (let s = 1; s <= DTU_SLAVES; s++) {
      const sensor = await http.call(deviceRoutes.create, {
        body: { name: `${name}-${s}`, deviceType: 'SENSOR', deviceProfileId: sensorProduct, gatewayId: gateway.id, addressCode: String(s).padStart(2, '0') },
      });
      ids.push(sensor.id);
    }
  }
  return ids;
}

async function tcpPortOf(gw: BenchGateway): Promise<number> {
  for (let waited = 0; waited < 5000; waited += 20) {
    const match = /device TCP access \(DTUs, Modbus RTU over TCP\) on port (\d+)/.exec(gw.bin.output());
    if (match) return Number(match[1]);
    await sleep(20);
  }
  throw new Error(`bench: the binary did not print its TCP access port:\n${gw.bin.output()}`);
}

/** Requests answered against requests due over RUN_MS, after WARMUP_MS. */
async function onTime(gw: BenchGateway, ids: readonly string[]): Promise<{ pct: number; answered: number; due: number; timeouts: number; seconds: number; cpuPct: number; rss: number; peak: number }> {
  await sleep(WARMUP_MS);
  const before = await answered(gw, ids);
  const cpu0 = cpuMs(gw.bin.pid);
  const { peak, after, seconds } = await watchRss(gw.bin.pid, RUN_MS);
  const cpuPct = (cpuMs(gw.bin.pid) - cpu0) / 10 / seconds;
  const end = await answered(gw, ids);
  const due = (ids.length * BLOCKS * (seconds * 1000)) / PERIOD_MS;
  const done = end.answered - before.answered;
  return { pct: Math.min((done / due) * 100, 100), answered: done, due: Math.round(due), timeouts: end.timeouts - before.timeouts, seconds, cpuPct, rss: after.rss, peak: peak.rss };
}

async function dtuRows(binary: string): Promise<RowSpec[]> {
  const gw = await startProvisionedGateway(binary);
  let dtus: ModbusSlave | null = null;
  try {
    const ids = await setUpDtus(gw);
    dtus = await ModbusSlave.dtus(await tcpPortOf(gw), DTUS, Array.from({ length: DTU_SLAVES }, (_, i) => i + 1));
    console.log(`bench: modbus: ${DTUS} DTUs × ${DTU_SLAVES} slaves connected, warming up`);
    const r = await onTime(gw, ids);
    return [
      {
        id: 'modbusDtuOnTimePct',
        figure: `Modbus RTU polls answered on time (${DTUS} DTUs × ${DTU_SLAVES} slaves × ${POINTS} points at 1 s)`,
        value: r.pct,
        unit: '%',
        budget: 99,
        better: 'higher',
        note:
          `pymodbus RTU framer behind ${DTUS} REGISTER_SEND connections to the TCP access port, ${BLOCKS} requests per slave and second, ` +
          `${r.seconds.toFixed(0)} s after ${WARMUP_MS / 1000} s warm-up: ${r.answered} answered of ${r.due} due, ${r.timeouts} timeouts; ` +
          `gateway CPU ${r.cpuPct.toFixed(0)} % of a core, RSS ${mb(r.rss)} MB`,
      },
    ];
  } finally {
    await gw.stop();
    await dtus?.stop().catch(() => undefined);
    ModbusSlave.killAll();
  }
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
  return [...(await tcpRows(binary)), ...(await dtuRows(binary))];
}

async function tcpRows(binary: string): Promise<RowSpec[]> {
  const firstPort = await firstFreePort();
  console.log(`bench: modbus: ${SLAVES} slaves from port ${firstPort}`);
  const slaves = await ModbusSlave.many(firstPort, SLAVES);
  const gw = await startProvisionedGateway(binary);
  try {
    const ids = await setUp(gw, firstPort);
    console.log(`bench: modbus: ${ids.length} slaves set up, warming up`);
    const r = await onTime(gw, ids);
    const note = `${SLAVES} pymodbus TCP slaves × ${POINTS} points in ${BLOCKS} blocks, every ${PERIOD_MS} ms, ${r.seconds.toFixed(0)} s after ${WARMUP_MS / 1000} s warm-up`;
    return [
      {
        id: 'modbusOnTimePct',
        figure: `Modbus polls answered on time (${SLAVES} TCP slaves × ${POINTS} points at 1 s)`,
        value: r.pct,
        unit: '%',
        budget: 99,
        better: 'higher',
        note: `${note}: ${r.answered} answered of ${r.due} due, ${r.timeouts} timeouts`,
      },
      {
        id: 'modbusGatewayCpuPct',
        figure: 'gateway CPU while polling 10,000 Modbus points per second',
        value: r.cpuPct,
        unit: '%',
        budget: 15,
        note: `${note}; /proc of the gateway process only`,
      },
      {
        id: 'modbusRssMb',
        figure: 'gateway RSS while polling 10,000 Modbus points per second',
        value: r.rss / MB,
        unit: 'MB',
        budget: 150,
        note: `${note}; peak ${mb(r.peak)} MB`,
      },
    ];
  } finally {
    await gw.stop();
    await slaves.stop().catch(() => undefined);
    ModbusSlave.killAll();
  }
}
