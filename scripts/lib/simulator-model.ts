/**
 * What a simulated device is: the simulator product's thing model (temperature, humidity, switch;
 * the `setSwitch` service; the `overheat` ALERT event) and the readings it reports, a random walk
 * inside the model's ranges with now and then a heat episode that crosses the overheat threshold.
 */
import type { TslImportBody } from '../../server/contract/thing-model.ts';

export const TEMPERATURE = { min: -40, max: 125 } as const;
export const HUMIDITY = { min: 0, max: 100 } as const;
/** Above this temperature a device reports `overheat` (once per episode). */
export const OVERHEAT_ABOVE = 60;
/** The episode ends (and the event re-arms) below this. */
const OVERHEAT_REARM_BELOW = 58;

export const SET_SWITCH = 'setSwitch';
export const OVERHEAT = 'overheat';

const onOff = { type: 'BOOL', specs: { '0': '关', '1': '开' } } as const;

/** The simulator product's model as a TSL import body. */
export const simulatorTsl = {
  properties: [
    {
      functionName: '温度',
      identifier: 'temperature',
      accessMode: 'r',
      functionJson: { dataType: { type: 'DOUBLE', specs: { ...TEMPERATURE, step: 0.1, unit: '°C', unitName: '摄氏度' } } },
    },
    {
      functionName: '湿度',
      identifier: 'humidity',
      accessMode: 'r',
      functionJson: { dataType: { type: 'DOUBLE', specs: { ...HUMIDITY, step: 0.1, unit: '%', unitName: '相对湿度' } } },
    },
    { functionName: '开关', identifier: 'switch', accessMode: 'rw', functionJson: { dataType: onOff } },
  ],
  services: [
    {
      functionName: '设置开关',
      identifier: SET_SWITCH,
      callType: 'SYNC',
      functionJson: {
        inputData: [{ identifier: 'on', functionName: '开关', dataType: onOff }],
        outputData: [{ identifier: 'success', functionName: '成功', dataType: { type: 'BOOL', specs: { '0': '失败', '1': '成功' } } }],
      },
    },
  ],
  events: [
    {
      functionName: '过温告警',
      identifier: OVERHEAT,
      eventType: 'ALERT',
      functionJson: {
        outputData: [{ identifier: 'temperature', functionName: '温度', dataType: { type: 'DOUBLE', specs: { ...TEMPERATURE, unit: '°C' } } }],
      },
    },
  ],
} satisfies TslImportBody;

export const simulatorIdentifiers: readonly string[] = [
  ...simulatorTsl.properties.map((p) => p.identifier),
  ...simulatorTsl.services.map((s) => s.identifier),
  ...simulatorTsl.events.map((e) => e.identifier),
];

export interface Reading {
  temperature: number;
  humidity: number;
  switch: boolean;
}

export interface WalkState {
  reading: Reading;
  /** Where the temperature drifts to: room temperature, or above the threshold during an episode. */
  target: number;
  /** True while an overheat was reported and the temperature has not come back down. */
  overheated: boolean;
}

const clamp = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));
const tenth = (v: number): number => Math.round(v * 10) / 10;

export function initialWalk(random: () => number = Math.random): WalkState {
  const room = 20 + random() * 8;
  return {
    reading: { temperature: tenth(room), humidity: tenth(40 + random() * 20), switch: true },
    target: room,
    overheated: false,
  };
}

/**
 * The next reading and whether it starts an overheat. About one reading in a hundred starts a heat
 * episode (target 62–72 °C), which ends at random a few dozen readings later.
 */
export function nextReading(state: WalkState, random: () => number = Math.random): { state: WalkState; overheat: boolean } {
  let target = state.target;
  if (target <= OVERHEAT_ABOVE && random() < 0.01) target = OVERHEAT_ABOVE + 2 + random() * 10;
  else if (target > OVERHEAT_ABOVE && random() < 0.04) target = 20 + random() * 8;
  const { temperature, humidity } = state.reading;
  const nextTemperature = tenth(clamp(temperature + (target - temperature) * 0.15 + (random() - 0.5), TEMPERATURE.min, TEMPERATURE.max));
  const nextHumidity = tenth(clamp(humidity + (random() - 0.5) * 2, HUMIDITY.min, HUMIDITY.max));
  const overheat = !state.overheated && nextTemperature > OVERHEAT_ABOVE;
  const overheated = overheat || (state.overheated && nextTemperature >= OVERHEAT_REARM_BELOW);
  return {
    state: { reading: { ...state.reading, temperature: nextTemperature, humidity: nextHumidity }, target, overheated },
    overheat,
  };
}
