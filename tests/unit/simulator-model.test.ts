import { describe, expect, it } from 'vitest';
import { HUMIDITY, initialWalk, nextReading, OVERHEAT_ABOVE, TEMPERATURE, type WalkState } from '../../scripts/lib/simulator-model.ts';

/** A repeatable random source (mulberry32), so the walk is the same on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function run(steps: number, seed: number): { states: WalkState[]; overheats: number[] } {
  const random = seeded(seed);
  let state = initialWalk(random);
  const states: WalkState[] = [];
  const overheats: number[] = [];
  for (let i = 0; i < steps; i++) {
    const next = nextReading(state, random);
    state = next.state;
    states.push(state);
    if (next.overheat) overheats.push(i);
  }
  return { states, overheats };
}

describe('simulated readings', () => {
  it('stay inside the thing model ranges with one decimal', () => {
    const { states } = run(50_000, 1);
    const temperatures = states.map((s) => s.reading.temperature);
    const humidities = states.map((s) => s.reading.humidity);
    expect(Math.min(...temperatures)).toBeGreaterThanOrEqual(TEMPERATURE.min);
    expect(Math.max(...temperatures)).toBeLessThanOrEqual(TEMPERATURE.max);
    expect(Math.min(...humidities)).toBeGreaterThanOrEqual(HUMIDITY.min);
    expect(Math.max(...humidities)).toBeLessThanOrEqual(HUMIDITY.max);
    expect(temperatures.filter((t) => Math.round(t * 10) / 10 !== t)).toEqual([]);
  });

  it('report overheat once when the temperature climbs past 60 °C, and again only after it cooled down', () => {
    const { states, overheats } = run(20_000, 7);
    expect(overheats.length).toBeGreaterThan(3);
    for (const i of overheats) {
      expect(states[i]!.reading.temperature).toBeGreaterThan(OVERHEAT_ABOVE);
      // Between two reports the device came back below the threshold.
      const previous = overheats.filter((j) => j < i).pop();
      if (previous !== undefined) {
        expect(states.slice(previous, i).some((s) => s.reading.temperature < OVERHEAT_ABOVE)).toBe(true);
      }
    }
    const hot = states.filter((s) => s.reading.temperature > OVERHEAT_ABOVE).length;
    // Episodes, not a permanent state: most readings are room temperature.
    expect(hot).toBeLessThan(states.length / 2);
  });
});
