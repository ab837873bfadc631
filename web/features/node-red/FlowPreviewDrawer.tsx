/**
 * A read-only picture of a snapshot's (or the deployed) flows, tab by tab, drawn by the console
 * without loading Node-RED's editor; optionally compared with another snapshot or the deployed
 * flows: the older of the two is "before", and the picture marks what the newer one added, changed
 * or removed, with the same changes listed below it.
 */
import { useEffect, useMemo, useState, type JSX } from 'react';
import Drawer from '@arco-design/web-react/es/Drawer';
import Empty from '@arco-design/web-react/es/Empty';
import Select from '@arco-design/web-react/es/Select';
import Spin from '@arco-design/web-react/es/Spin';
import Table from '@arco-design/web-react/es/Table';
import Tabs from '@arco-design/web-react/es/Tabs';
import Tag from '@arco-design/web-react/es/Tag';
import { useTranslation } from 'react-i18next';
import type { NodeRedSnapshot } from '../../../server/contract/node-red.ts';
import { formatDateTime } from '../../lib/date-format.ts';
import { FlowCanvas } from './FlowCanvas.tsx';
import { diffFlows, type FlowChange, type FlowChangeKind } from './flowDiff.ts';
import { layoutFlows, type FlowItem } from './flowLayout.ts';
import { flowsOf } from './nodeRedApi.ts';

/** What is shown or compared: a snapshot's id, or `CURRENT` for the deployed flows. */
export const CURRENT = 'current';
const NONE = 'none';
const changeColours: Record<FlowChangeKind, string> = { added: 'green', changed: 'orange', removed: 'red' };

export interface FlowPreviewDrawerProps {
  instanceId: string;
  /** The snapshot shown, or CURRENT; null: closed. */
  shown: string | null;
  /** Snapshots it can be compared with (the card's page). */
  snapshots: readonly NodeRedSnapshot[];
  onClose: () => void;
}

interface Loaded {
  flows: FlowItem[];
  changes: FlowChange[] | null;
  loading: boolean;
}

/** The picture's items: the newer flows plus what the older had and the newer lost (drawn as removed). */
function pictured(before: readonly FlowItem[], after: readonly FlowItem[]): FlowItem[] {
  const ids = new Set(after.map((n) => n['id']));
  return [...after, ...before.filter((n) => !ids.has(n['id']))];
}

/** Loads the shown flows and, when comparing, the other's, ordered by time (the deployed flows are newest). */
function useCompared(instanceId: string, shown: string | null, compare: string, snapshots: readonly NodeRedSnapshot[]): Loaded {
  const [state, setState] = useState<Loaded>({ flows: [], changes: null, loading: false });
  useEffect(() => {
    if (shown === null) return undefined;
    let live = true;
    const load = (which: string): Promise<FlowItem[]> => flowsOf(instanceId, which === CURRENT ? null : which);
    const time = (which: string): number => (which === CURRENT ? Number.POSITIVE_INFINITY : (snapshots.find((s) => s.id === which)?.createdTime ?? 0));
    setState({ flows: [], changes: null, loading: true });
    void Promise.all([load(shown), compare === NONE ? null : load(compare)]).then(
      ([mine, theirs]) => {
        if (!live) return;
        if (!theirs) return setState({ flows: mine, changes: null, loading: false });
        const [before, after] = time(shown) >= time(compare) ? [theirs, mine] : [mine, theirs];
        setState({ flows: pictured(before, after), changes: diffFlows(before, after), loading: false });
      },
      () => live && setState({ flows: [], changes: null, loading: false }),
    );
    return () => {
      live = false;
    };
    // The snapshot list only orders the two; a refreshed page need not reload them.
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- see above.
  }, [instanceId, shown, compare]);
  return state;
}

function ChangeList({ changes }: { changes: FlowChange[] }): JSX.Element {
  const { t } = useTranslation('nodeRed');
  const counts = Object.fromEntries((['added', 'removed', 'changed'] as const).map((k) => [k, changes.filter((c) => c.kind === k).length]));
  return (
    <div data-testid="flow-diff">
      <p data-testid="flow-diff-summary">{t('diff.summary', counts)}</p>
      <Table<FlowChange>
        size="small"
        rowKey="id"
        pagination={changes.length > 20 ? { pageSize: 20 } : false}
        data={changes}
        noDataElement={t('diff.none')}
        columns={[
          { title: t('diff.kind'), dataIndex: 'kind', width: 100, render: (k: FlowChangeKind) => <Tag color={changeColours[k]}>{t(`diff.kinds.${k}`)}</Tag> },
          { title: t('diff.label'), dataIndex: 'label', ellipsis: true },
          { title: t('diff.type'), dataIndex: 'type', width: 160, ellipsis: true },
          { title: t('diff.tab'), dataIndex: 'tab', width: 160, ellipsis: true, render: (v: string) => v || '—' },
        ]}
      />
    </div>
  );
}

export function FlowPreviewDrawer({ instanceId, shown, snapshots, onClose }: FlowPreviewDrawerProps): JSX.Element {
  const { t } = useTranslation('nodeRed');
  const [compare, setCompare] = useState(NONE);
  useEffect(() => setCompare(NONE), [shown]);
  const { flows, changes, loading } = useCompared(instanceId, shown, compare, snapshots);
  const tabs = useMemo(() => layoutFlows(flows), [flows]);
  const kinds = useMemo(() => new Map(changes?.map((c) => [c.id, c.kind])), [changes]);
  const options = [
    { value: NONE, label: t('diff.noCompare') },
    ...(shown === CURRENT ? [] : [{ value: CURRENT, label: t('preview.current') }]),
    ...snapshots.filter((s) => s.id !== shown).map((s) => ({ value: s.id, label: `${formatDateTime(s.createdTime)} ${s.note}`.trim() })),
  ];
  return (
    <Drawer
      width="min(1100px, 96vw)"
      visible={shown !== null}
      onCancel={onClose}
      footer={null}
      unmountOnExit
      title={shown === CURRENT ? t('preview.current') : t('preview.title')}
    >
      <div data-testid="flow-preview">
        <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center', marginBottom: 12 }}>
          {t('diff.compareWith')}
          <Select value={compare} onChange={setCompare} options={options} style={{ width: 320 }} data-testid="flow-preview-compare" />
        </span>
        <Spin loading={loading} style={{ display: 'block' }}>
          {tabs.length === 0 ? (
            <Empty description={t('preview.empty')} />
          ) : (
            <Tabs type="card-gutter" data-testid="flow-preview-tabs">
              {tabs.map((tab) => (
                <Tabs.TabPane key={tab.id} title={<span data-testid={`flow-tab-${tab.id}`}>{tab.subflow ? t('preview.subflow', { label: tab.label }) : tab.label}</span>}>
                  {/* Focusable so the keyboard can scroll a wide picture. */}
                  <div tabIndex={0} role="region" aria-label={tab.label} style={{ overflow: 'auto', maxHeight: '60vh', border: '1px solid var(--color-border-2)' }}>
                    <FlowCanvas tab={tab} changes={kinds} />
                  </div>
                </Tabs.TabPane>
              ))}
            </Tabs>
          )}
          {changes && <ChangeList changes={changes} />}
        </Spin>
      </div>
    </Drawer>
  );
}
