/**
 * The designer: a palette of widget types, the grid canvas (drag to move, corner to resize), the
 * selected widget's properties, undo/redo (buttons and Ctrl+Z / Ctrl+Y), and save: by hand, or by
 * itself AUTOSAVE_MS after the last change (not while a bound widget still lacks its key, which the
 * server would refuse), with the unsaved-changes question on leaving before that. Run opens the
 * sandbox (full screen) once saved.
 */
import { useCallback, useEffect, useRef, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Space from '@arco-design/web-react/es/Space';
import Spin from '@arco-design/web-react/es/Spin';
import Tag from '@arco-design/web-react/es/Tag';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'wouter';
import { consolePath, consolePaths } from '../../../server/contract/console-paths.ts';
import type { Layout, Visualization, Widget, WidgetType } from '../../../server/contract/visualization.ts';
import { useLeaveGuard } from '../../lib/leave-guard.ts';
import { Message } from '../../lib/message.ts';
import { GridCanvas } from './GridCanvas.tsx';
import { addWidget, editWidget, historyOf, pushLayout, redo, removeWidget, undo, type LayoutHistory } from './layoutEdit.ts';
import { renderThumbnail } from './thumbnail.ts';
import { getVisualization, saveVisualization } from './visualizationApi.ts';
import { WidgetProperties } from './WidgetProperties.tsx';
import { WidgetView } from './WidgetView.tsx';
import './visualization.css';

/** The types the designer offers. */
const paletteTypes: readonly WidgetType[] = ['value', 'gauge', 'chart', 'status', 'switch', 'button', 'text', 'image', 'alarms', 'video'];

/** Quiet time after the last change before the designer saves by itself. */
const AUTOSAVE_MS = 3000;

/** The first widget bound to a device without a key: saving it would be refused. */
function unfinished(layout: Layout): Widget | undefined {
  return layout.widgets.find((w) => w.binding && !w.binding.key);
}

export function DesignerPage(): JSX.Element {
  const { t } = useTranslation('visualization');
  const { id } = useParams<{ id: string }>();
  const [, navigate] = useLocation();
  const [config, setConfig] = useState<Visualization | null>(null);
  const [history, setHistory] = useState<LayoutHistory | null>(null);
  const [saved, setSaved] = useState<Layout | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    void getVisualization(id).then((v) => {
      setConfig(v);
      setHistory(historyOf(v.layout));
      setSaved(v.layout);
    });
  }, [id]);

  const layout = history?.present ?? null;
  const dirty = layout !== null && layout !== saved;
  useLeaveGuard(dirty);

  const change = useCallback((next: Layout) => setHistory((h) => (h ? pushLayout(h, next) : h)), []);

  // The save of the latest render, for the autosave timer (the save closes over this render's layout).
  const autosave = useRef<() => void>(() => undefined);
  useEffect(() => {
    if (!layout || !dirty || saving || unfinished(layout)) return undefined;
    const timer = setTimeout(() => autosave.current(), AUTOSAVE_MS);
    return () => clearTimeout(timer);
  }, [layout, dirty, saving]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (!(e.ctrlKey || e.metaKey) || (e.target as HTMLElement).closest('input, textarea')) return;
      const key = e.key.toLowerCase();
      if (key === 'z' && !e.shiftKey) setHistory((h) => h && undo(h));
      else if (key === 'y' || (key === 'z' && e.shiftKey)) setHistory((h) => h && redo(h));
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  if (!config || !layout || !history) return <Spin block style={{ marginTop: 80 }} />;

  const save = async (auto = false): Promise<void> => {
    const open = unfinished(layout);
    if (open) {
      setSelected(open.id);
      Message.warning(t('keyRequired', { widget: String(open.props.title ?? open.id) }));
      return;
    }
    setSaving(true);
    try {
      const next = await saveVisualization({ id: config.id, name: config.name, platform: config.platform, template: config.template, organizationId: config.organizationId, thumbnail: renderThumbnail(layout), layout });
      setConfig(next);
      setSaved(layout);
      if (!auto) Message.success(t('saved'));
    } finally {
      setSaving(false);
    }
  };
  autosave.current = () => void save(true);

  const widget = layout.widgets.find((w) => w.id === selected) ?? null;
  return (
    <Card
      bordered={false}
      title={
        <Space>
          <span data-testid="vis-designer-name">{config.name}</span>
          <Tag>{t(`platforms.${config.platform}`)}</Tag>
          {dirty ? (
            <Tag color="orange" data-testid="vis-unsaved">
              {t('unsaved')}
            </Tag>
          ) : null}
        </Space>
      }
      extra={
        <Space>
          <Button disabled={!history.past.length} onClick={() => setHistory(undo(history))} data-testid="vis-undo">
            {t('undo')}
          </Button>
          <Button disabled={!history.future.length} onClick={() => setHistory(redo(history))} data-testid="vis-redo">
            {t('redo')}
          </Button>
          <Button disabled={dirty} onClick={() => navigate(consolePath(consolePaths.visualizationRun, { id: config.id }))} data-testid="vis-run">
            {t('run')}
          </Button>
          <Button type="primary" loading={saving} onClick={() => void save()} data-testid="vis-save">
            {t('save')}
          </Button>
        </Space>
      }
      data-testid="vis-designer"
    >
      <div className={`ec-vis__designer ec-vis--${config.platform}`}>
        <div className="ec-vis__palette">
          {paletteTypes.map((type) => (
            <Button
              key={type}
              long
              onClick={() => {
                const added = addWidget(layout, type);
                change(added.layout);
                setSelected(added.id);
              }}
              data-testid={`vis-add-${type}`}
            >
              {t(`types.${type}`)}
            </Button>
          ))}
        </div>
        <div className="ec-vis__stage">
          <GridCanvas
            testId="vis-canvas"
            layout={layout}
            onChange={change}
            selectedId={selected}
            onSelect={setSelected}
            renderWidget={(w, height) => <WidgetView widget={w} latest={undefined} missing={false} source={null} height={height} />}
          />
        </div>
        <WidgetProperties
          widget={widget}
          // Against the history as it is when the edit lands, not this render's layout: an edit made
          // before the next render (the model's unit arriving as a key is typed) would undo the other.
          onChange={(edit) => widget && setHistory((h) => h && editWidget(h, widget.id, edit))}
          onRemove={() => {
            if (!widget) return;
            change(removeWidget(layout, widget.id));
            setSelected(null);
          }}
        />
      </div>
    </Card>
  );
}
