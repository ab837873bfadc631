import { describe, expect, it } from 'vitest';
import { addWidget, editWidget, historyOf, placed, pushLayout, redo, removeWidget, undo, updateWidget, withModelUnit } from '../../web/features/visualization/layoutEdit.ts';
import type { Layout } from '../../server/contract/visualization.ts';

const empty: Layout = { widgets: [] };

describe('the designer’s layout edits', () => {
  it('adds each new widget below the others with an id of its own', () => {
    const first = addWidget(empty, 'chart');
    const second = addWidget(first.layout, 'value');
    expect(second.layout.widgets.map((w) => [w.id, w.y])).toEqual([
      ['w1', 0],
      ['w2', 5],
    ]);
    const afterRemove = removeWidget(second.layout, 'w1');
    expect(addWidget(afterRemove, 'text').id).toBe('w3');
  });

  it('keeps a moved or resized widget inside the 24 columns and above row 0', () => {
    expect(placed({ id: 'a', type: 'value', x: 30, y: -3, w: 6, h: 0, props: {} })).toMatchObject({ x: 18, y: 0, w: 6, h: 1 });
    expect(placed({ id: 'a', type: 'value', x: 2, y: 0, w: 40, h: 3, props: {} })).toMatchObject({ x: 0, w: 24 });
    const { layout } = addWidget(empty, 'value');
    expect(updateWidget(layout, 'w1', (w) => ({ ...w, x: w.x - 5 })).widgets[0]!.x).toBe(0);
  });

  it('undoes and redoes whole layouts, and a new edit drops the redo steps', () => {
    const a = addWidget(empty, 'value').layout;
    const b = addWidget(a, 'text').layout;
    let h = pushLayout(pushLayout(historyOf(empty), a), b);
    h = undo(h);
    expect(h.present).toBe(a);
    h = redo(h);
    expect(h.present).toBe(b);
    h = undo(undo(h));
    expect(h.present).toBe(empty);
    expect(undo(h)).toBe(h);
    h = pushLayout(h, b);
    expect(h.future).toEqual([]);
  });

  it('gives a key typed before the thing model arrived its unit when the model comes, without losing the typing', () => {
    const bound = updateWidget(addWidget(empty, 'value').layout, 'w1', (w) => ({ ...w, binding: { deviceId: 'd1', key: '' } }));
    let h = historyOf(bound);
    // Both edits were made by the same render: the key typed, then the model's unit for it.
    const typeKey = (w: Parameters<typeof withModelUnit>[0]) => ({ ...w, binding: { deviceId: 'd1', key: 'temperature' } });
    h = editWidget(h, 'w1', typeKey);
    h = editWidget(h, 'w1', (w) => withModelUnit(w, 'temperature', '°C'));
    expect(h.present.widgets[0]).toMatchObject({ binding: { key: 'temperature' }, props: { unit: '°C' } });
    // A unit of a key no longer typed, or a widget that has one, changes nothing (no undo step, not dirty).
    const settled = h.present;
    expect(editWidget(h, 'w1', (w) => withModelUnit(w, 'temperature', 'K')).present).toBe(settled);
    expect(withModelUnit(settled.widgets[0]!, 'humidity', '%')).toBe(settled.widgets[0]);
  });
});
