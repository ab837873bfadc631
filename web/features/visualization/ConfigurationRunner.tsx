/**
 * A configuration running: its widgets on the grid with live values. Signed in, switches and
 * buttons send commands; through a share link they stay disabled (a share token sends nothing).
 */
import { memo, useEffect, type JSX } from 'react';
import type { Layout, Widget } from '../../../server/contract/visualization.ts';
import type { LatestValue } from '../../lib/use-live.ts';
import { GridCanvas } from './GridCanvas.tsx';
import { useBindingValues, type ValueSource } from './useBindingValues.ts';
import { writeKey } from './visualizationApi.ts';
import { WidgetView } from './WidgetView.tsx';

interface RunningWidgetProps {
  widget: Widget;
  latest: LatestValue | undefined;
  missing: boolean;
  source: ValueSource;
  height: number;
}

/**
 * One widget of the running grid, rendered again only when its own value (or layout) changes: a
 * wall of 30 devices at 1 Hz would otherwise redraw all 30 widgets for every device's message.
 */
const RunningWidget = memo(function RunningWidget({ widget, latest, missing, source, height }: RunningWidgetProps): JSX.Element {
  const b = widget.binding;
  const onWrite = source.kind === 'live' && b?.key ? (value: unknown) => writeKey(b.deviceId, b.key, value) : undefined;
  return <WidgetView widget={widget} latest={latest} missing={missing} source={source} onWrite={onWrite} height={height} />;
});

export function ConfigurationRunner(props: { layout: Layout; source: ValueSource; onGone?: () => void }): JSX.Element {
  const { layout, source } = props;
  const { values, missing, gone } = useBindingValues(layout, source);
  const { onGone } = props;
  useEffect(() => {
    if (gone) onGone?.();
  }, [gone, onGone]);
  return (
    <GridCanvas
      testId="vis-run-canvas"
      layout={layout}
      renderWidget={(w, height) => {
        const b = w.binding;
        const latest = b ? values[b.deviceId]?.[b.key] : undefined;
        return <RunningWidget widget={w} latest={latest} missing={Boolean(b && missing.has(b.deviceId))} source={source} height={height} />;
      }}
    />
  );
}
