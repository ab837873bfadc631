/**
 * One widget as it shows its data: value card, gauge, chart, status light, switch, button, text,
 * image (an uploaded file), alarm list (AlarmListWidget.tsx), video (VideoWidget.tsx). A binding
 * whose device is gone shows "missing"; a type this version does not draw says so. Switches and buttons act only when `onWrite` is given (signed in, not in
 * the designer); through a share link they are shown disabled.
 */
import { useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Modal from '@arco-design/web-react/es/Modal';
import Switch from '@arco-design/web-react/es/Switch';
import Tag from '@arco-design/web-react/es/Tag';
import { useTranslation } from 'react-i18next';
import type { Widget } from '../../../server/contract/visualization.ts';
import { rawText } from '../telemetry/valueFormat.ts';
import type { LatestValue } from '../../lib/use-live.ts';
import type { ValueSource } from './useBindingValues.ts';
import { AlarmListWidget } from './AlarmListWidget.tsx';
import { VideoWidget } from './VideoWidget.tsx';
import { WidgetChart } from './WidgetChart.tsx';

export interface WidgetViewProps {
  widget: Widget;
  latest: LatestValue | undefined;
  missing: boolean;
  /** Null in the designer: no data is loaded there. */
  source: ValueSource | null;
  /** Writes the bound key (a command); absent: switches and buttons are disabled. */
  onWrite?: (value: unknown) => Promise<unknown>;
  /** Pixel height of the widget's body. */
  height: number;
}

function isOn(value: unknown): boolean {
  return value === true || value === 1 || value === 'ON' || value === 'ONLINE' || value === 'true' || value === '1';
}

function numberOf(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
}

function Gauge({ value, min, max }: { value: number | null; min: number; max: number }): JSX.Element {
  const share = value === null || max <= min ? 0 : Math.min(Math.max((value - min) / (max - min), 0), 1);
  const angle = Math.PI * (1 - share);
  const x = 50 + 40 * Math.cos(angle);
  const y = 50 - 40 * Math.sin(angle);
  return (
    <svg viewBox="0 0 100 56" className="ec-vis__gauge" aria-hidden="true">
      <path d="M10 50 A40 40 0 0 1 90 50" className="ec-vis__gauge-track" />
      {share > 0 ? <path d={`M10 50 A40 40 0 0 1 ${x.toFixed(2)} ${y.toFixed(2)}`} className="ec-vis__gauge-bar" /> : null}
    </svg>
  );
}

function WriteControl(props: { widget: Widget; latest: LatestValue | undefined; onWrite?: (value: unknown) => Promise<unknown> }): JSX.Element {
  const { t } = useTranslation('visualization');
  const { widget, latest, onWrite } = props;
  const [busy, setBusy] = useState(false);
  const write = (value: unknown): void => {
    if (!onWrite) return;
    const run = async (): Promise<void> => {
      setBusy(true);
      try {
        await onWrite(value);
      } finally {
        setBusy(false);
      }
    };
    if (widget.props.confirm === false) {
      void run();
      return;
    }
    Modal.confirm({ title: t('confirmWrite', { key: widget.binding?.key ?? '', value: String(value) }), onOk: run });
  };
  const disabled = !onWrite || !widget.binding;
  if (widget.type === 'switch') {
    const on = isOn(latest?.value);
    const name = String(widget.props.title || widget.binding?.key || t('types.switch'));
    return <Switch checked={on} loading={busy} disabled={disabled} onChange={(next: boolean) => write(next)} aria-label={name} data-testid={`vis-switch-${widget.id}`} />;
  }
  return (
    <Button type="primary" loading={busy} disabled={disabled} onClick={() => write(widget.props.value ?? true)} data-testid={`vis-button-${widget.id}`}>
      {String(widget.props.label ?? t('send'))}
    </Button>
  );
}

function WidgetBody(props: WidgetViewProps): JSX.Element {
  const { t } = useTranslation('visualization');
  const { widget, latest } = props;
  const unit = widget.props.unit ? String(widget.props.unit) : '';
  switch (widget.type) {
    case 'value':
      return (
        <div className="ec-vis__value" data-testid={`vis-value-${widget.id}`}>
          {latest ? rawText(latest.value) : '—'}
          {unit ? <span className="ec-vis__unit">{unit}</span> : null}
        </div>
      );
    case 'gauge': {
      const value = numberOf(latest?.value);
      return (
        <div className="ec-vis__gauge-box">
          <Gauge value={value} min={numberOf(widget.props.min) ?? 0} max={numberOf(widget.props.max) ?? 100} />
          <span className="ec-vis__gauge-value" data-testid={`vis-value-${widget.id}`}>
            {value ?? '—'} {unit}
          </span>
        </div>
      );
    }
    case 'chart':
      return <WidgetChart widget={widget} latest={latest} source={props.source} height={props.height - 40} />;
    case 'status': {
      const on = isOn(latest?.value);
      return (
        <span className={`ec-vis__light ${latest ? (on ? 'is-on' : 'is-off') : ''}`} data-testid={`vis-status-${widget.id}`} data-on={latest ? String(on) : 'unknown'}>
          {latest ? (on ? t('on') : t('off')) : '—'}
        </span>
      );
    }
    case 'switch':
    case 'button':
      return <WriteControl widget={widget} latest={latest} onWrite={props.onWrite} />;
    case 'image':
      return typeof widget.props.src === 'string' ? (
        <img className="ec-vis__image" src={widget.props.src} alt={String(widget.props.title ?? '')} data-testid={`vis-image-${widget.id}`} />
      ) : (
        <span className="ec-vis__muted">{t('imageNone')}</span>
      );
    case 'text':
      return (
        <div className="ec-vis__text" style={{ fontSize: numberOf(widget.props.size) ?? 16 }}>
          {String(widget.props.text ?? '')}
        </div>
      );
    case 'alarms':
      return <AlarmListWidget widget={widget} source={props.source} />;
    case 'video':
      return <VideoWidget widget={widget} source={props.source} />;
    default:
      return <span className="ec-vis__muted">{t('typeNotBuilt')}</span>;
  }
}

export function WidgetView(props: WidgetViewProps): JSX.Element {
  const { t } = useTranslation('visualization');
  const { widget } = props;
  const title = widget.type === 'text' ? '' : String(widget.props.title ?? '');
  return (
    <div className={`ec-vis__widget ec-vis__widget--${widget.type}`} data-testid={`vis-widget-${widget.id}`}>
      {title || props.missing ? (
        <div className="ec-vis__widget-title">
          <span>{title}</span>
          {props.missing ? (
            <Tag size="small" color="orangered" data-testid={`vis-missing-${widget.id}`}>
              {t('missing')}
            </Tag>
          ) : null}
        </div>
      ) : null}
      <div className="ec-vis__widget-body">
        <WidgetBody {...props} />
      </div>
    </div>
  );
}
