import { describe, expect, it } from 'vitest';
import { tabRegistry, type TabEntry } from '../../web/lib/tab-registry.ts';

// Panels are never rendered here: the registry only orders and finds entries.
const panel = {} as TabEntry<object>['panel'];
const registry = tabRegistry<object>([
  { key: 'credentials', titleKey: 'credentials:tab', sort: 70, panel },
  { key: 'info', titleKey: 'device:tabs.info', sort: 10, panel },
  { key: 'events', titleKey: 'eventRecord:tab', sort: 50, panel },
]);

describe('tab registry', () => {
  it('lists tabs by their sort slot, whatever order they were added in', () => {
    expect(registry.all().map((t) => t.key)).toEqual(['info', 'events', 'credentials']);
  });

  it('finds a tab by key and falls back to the first for an unknown or missing key', () => {
    expect(registry.find('events').key).toBe('events');
    expect(registry.find('alarm').key).toBe('info');
    expect(registry.find(undefined).key).toBe('info');
  });

  it('shows a conditional tab only for the subjects it applies to, and finds keys among the shown ones', () => {
    const subjectPanel = {} as TabEntry<{ gateway: boolean }>['panel'];
    const tabs = tabRegistry<{ gateway: boolean }>([
      { key: 'info', titleKey: 'device:tabs.info', sort: 10, panel: subjectPanel },
      { key: 'subDevices', titleKey: 'device:tabs.subDevices', sort: 65, panel: subjectPanel, shownFor: ({ gateway }) => gateway },
    ]);
    expect(tabs.all({ gateway: true }).map((t) => t.key)).toEqual(['info', 'subDevices']);
    expect(tabs.all({ gateway: false }).map((t) => t.key)).toEqual(['info']);
    expect(tabs.find('subDevices', { gateway: false }).key).toBe('info');
    expect(tabs.find('subDevices', { gateway: true }).key).toBe('subDevices');
  });

  it('names each title namespace once', () => {
    expect(registry.namespaces().sort()).toEqual(['credentials', 'device', 'eventRecord']);
  });
});
