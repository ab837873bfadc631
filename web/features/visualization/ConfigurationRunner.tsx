/**
 * A configuration running: its widgets on the grid with live values. Signed in, switches and
 * buttons send commands; through a share link they stay disabled (a share token sends nothing).
 */
import { useEffect, type JSX } from 'react';
import type { Layout } from '../../../server/contract/visualization.ts';
import { GridCanvas } from './GridCanvas.tsx';
import { useBindingValues, type ValueSource } from './useBindingValues.ts';
import { writeKey } from './visualizationApi.ts';
import { WidgetView } from './WidgetView.tsx';

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
        const onWrite = source.kind === 'live' && b?.key ? (value: unknown) => writeKey(b.deviceId, b.key, value) : undefined;
        return <WidgetView widget={w} latest={latest} missing={Boolean(b && missing.has(b.deviceId))} source={source} onWrite={onWrite} height={height} />;
      }}
    />
  );
}
