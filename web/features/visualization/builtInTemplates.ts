/**
 * The two templates every gateway has, written in code rather than stored: a device overview and
 * an alarm wall. "Create from template" copies one into a new configuration; bindings are left for
 * the user to pick, since the devices differ on every gateway.
 */
import type { Layout, VisualizationPlatform } from '../../../server/contract/visualization.ts';

export interface BuiltInTemplate {
  /** Stable id, never a stored configuration's. */
  id: string;
  /** Key of its name in the visualization namespace. */
  nameKey: 'builtIn.deviceOverview' | 'builtIn.alarmWall';
  platform: VisualizationPlatform;
  layout: Layout;
}

export const builtInTemplates: readonly BuiltInTemplate[] = [
  {
    id: 'builtin-device-overview',
    nameKey: 'builtIn.deviceOverview',
    platform: 'pc',
    layout: {
      widgets: [
        { id: 'title', type: 'text', x: 0, y: 0, w: 24, h: 2, props: { text: 'Device overview', size: 24 } },
        { id: 'state', type: 'status', x: 0, y: 2, w: 4, h: 3, props: { title: 'Online' } },
        { id: 'v1', type: 'value', x: 4, y: 2, w: 5, h: 3, props: { title: 'Value 1' } },
        { id: 'v2', type: 'value', x: 9, y: 2, w: 5, h: 3, props: { title: 'Value 2' } },
        { id: 'g1', type: 'gauge', x: 14, y: 2, w: 5, h: 3, props: { title: 'Gauge', min: 0, max: 100 } },
        { id: 'sw', type: 'switch', x: 19, y: 2, w: 5, h: 3, props: { title: 'Power', confirm: true } },
        { id: 'c1', type: 'chart', x: 0, y: 5, w: 24, h: 6, props: { title: 'Trend' } },
      ],
    },
  },
  {
    id: 'builtin-alarm-wall',
    nameKey: 'builtIn.alarmWall',
    platform: 'pc',
    layout: {
      widgets: [
        { id: 'title', type: 'text', x: 0, y: 0, w: 24, h: 2, props: { text: 'Alarm wall', size: 24 } },
        ...Array.from({ length: 8 }, (_, i) => ({ id: `s${i + 1}`, type: 'status' as const, x: (i % 4) * 6, y: 2 + Math.floor(i / 4) * 3, w: 6, h: 3, props: { title: `Point ${i + 1}` } })),
      ],
    },
  },
];
