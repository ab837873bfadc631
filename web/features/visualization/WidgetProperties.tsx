/**
 * The designer's side panel: the selected widget's title, binding (device picker searching the
 * server, key picker from its thing model) and the settings of its type (an alarm list names
 * devices or a product: their alarms, not a key).
 */
import type { JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Empty from '@arco-design/web-react/es/Empty';
import Input from '@arco-design/web-react/es/Input';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Select from '@arco-design/web-react/es/Select';
import Switch from '@arco-design/web-react/es/Switch';
import { useTranslation } from 'react-i18next';
import { alarmSeverities } from '../../../server/contract/alarm.ts';
import { VIS_ALARM_ROWS_DEFAULT, VIS_ALARM_ROWS_MAX, type Widget, type WidgetAlarmSource } from '../../../server/contract/visualization.ts';
import { ImageUploadField } from '../../components/ImageUploadField.tsx';
import { DeviceSelect } from '../device/DeviceSelect.tsx';
import { ProductSelect } from '../product/ProductSelect.tsx';
import { VideoChannelSelect } from '../video/VideoChannelSelect.tsx';
import { KeySelect } from './KeySelect.tsx';
import { withModelUnit } from './layoutEdit.ts';

const bound: ReadonlySet<string> = new Set(['value', 'gauge', 'chart', 'status', 'switch', 'button']);

type Props = Widget['props'];

function Field(props: { label: string; children: JSX.Element }): JSX.Element {
  return (
    <label className="ec-vis__field">
      <span>{props.label}</span>
      {props.children}
    </label>
  );
}

/** An alarm list's devices (its old single binding among them) as saved. */
function alarmDevicesOf(widget: Widget): string[] {
  return [...new Set([...(widget.binding ? [widget.binding.deviceId] : []), ...(widget.alarmSource?.deviceIds ?? [])])];
}

/** The widget naming `deviceIds` and `productId` (nothing named: no source at all). */
function withAlarmSource(w: Widget, deviceIds: string[], productId: string | undefined): Widget {
  const { binding: _single, alarmSource: _old, ...rest } = w;
  const source: WidgetAlarmSource = { ...(deviceIds.length ? { deviceIds } : {}), ...(productId ? { productId } : {}) };
  return Object.keys(source).length ? { ...rest, alarmSource: source } : rest;
}

/** An alarm list's devices and product (none: every device in the viewer's scope, and nothing through a share link), severity and rows. */
function AlarmListProperties({ widget, onChange }: { widget: Widget; onChange: (change: (w: Widget) => Widget) => void }): JSX.Element {
  const { t } = useTranslation(['visualization', 'alarm']);
  return (
    <>
      <Field label={t('alarms.devices')}>
        <DeviceSelect<string[]>
          multiple
          value={alarmDevicesOf(widget)}
          onChange={(ids) => onChange((w) => withAlarmSource(w, ids ?? [], w.alarmSource?.productId))}
          placeholder={t('alarms.devicesPlaceholder')}
          style={{ width: '100%' }}
          testId="vis-prop-device"
        />
      </Field>
      <Field label={t('alarms.product')}>
        <ProductSelect
          allowClear
          value={widget.alarmSource?.productId}
          onChange={(productId) => onChange((w) => withAlarmSource(w, alarmDevicesOf(w), productId || undefined))}
          placeholder={t('alarms.productPlaceholder')}
          style={{ width: '100%' }}
          testId="vis-prop-alarm-product"
        />
      </Field>
      <span className="ec-vis__muted">{t('alarms.sourceHint')}</span>
      <Field label={t('alarms.severityFilter')}>
        <Select
          allowClear
          value={typeof widget.props.severity === 'string' && widget.props.severity ? widget.props.severity : undefined}
          placeholder={t('alarms.anySeverity')}
          onChange={(v: string | undefined) => onChange((w) => ({ ...w, props: { ...w.props, severity: v ?? null } }))}
          options={alarmSeverities.map((s) => ({ value: s, label: t(`alarm:severity.${s}`) }))}
          data-testid="vis-prop-severity"
        />
      </Field>
      <Field label={t('alarms.rows')}>
        <InputNumber
          min={1}
          max={VIS_ALARM_ROWS_MAX}
          value={typeof widget.props.rows === 'number' ? widget.props.rows : VIS_ALARM_ROWS_DEFAULT}
          onChange={(v: number | undefined) => onChange((w) => ({ ...w, props: { ...w.props, rows: v ?? null } }))}
          data-testid="vis-prop-rows"
        />
      </Field>
      <span className="ec-vis__muted">{t('alarms.readOnlyShared')}</span>
    </>
  );
}

export function WidgetProperties(props: { widget: Widget | null; onChange: (change: (w: Widget) => Widget) => void; onRemove: () => void }): JSX.Element {
  const { t } = useTranslation('visualization');
  const { widget, onChange } = props;
  if (!widget) return <Empty description={t('props.none')} />;
  const setProps = (next: Props): void => onChange((w) => ({ ...w, props: { ...w.props, ...next } }));
  const text = (name: string, label: string): JSX.Element => (
    <Field label={label}>
      <Input value={String(widget.props[name] ?? '')} onChange={(v: string) => setProps({ [name]: v })} data-testid={`vis-prop-${name}`} />
    </Field>
  );
  const number = (name: string, label: string): JSX.Element => (
    <Field label={label}>
      <InputNumber value={typeof widget.props[name] === 'number' ? (widget.props[name] as number) : undefined} onChange={(v: number | undefined) => setProps({ [name]: v ?? null })} data-testid={`vis-prop-${name}`} />
    </Field>
  );
  return (
    <div className="ec-vis__props" data-testid="vis-props">
      <h4>{t(`types.${widget.type}`)}</h4>
      {widget.type === 'text' ? (
        <>
          {text('text', t('props.text'))}
          {number('size', t('props.size'))}
        </>
      ) : (
        text('title', t('props.title'))
      )}
      {bound.has(widget.type) ? (
        <>
          <Field label={t('props.device')}>
            <DeviceSelect<string>
              value={widget.binding?.deviceId}
              onChange={(deviceId) => onChange((w) => ({ ...w, binding: deviceId ? { deviceId, key: w.binding?.key ?? '' } : undefined }))}
              placeholder={t('props.devicePlaceholder')}
              testId="vis-prop-device"
            />
          </Field>
          <Field label={t('props.key')}>
            <KeySelect
              deviceId={widget.binding?.deviceId}
              value={widget.binding?.key || undefined}
              onChange={({ key, unit }) => onChange((w) => ({ ...w, binding: w.binding ? { ...w.binding, key } : undefined, props: unit ? { ...w.props, unit } : w.props }))}
              // The widget as it is then (never a change when it has a unit: selecting a widget must not make the layout dirty).
              onModelUnit={(key, unit) => onChange((w) => withModelUnit(w, key, unit))}
            />
          </Field>
        </>
      ) : null}
      {widget.type === 'alarms' ? <AlarmListProperties widget={widget} onChange={onChange} /> : null}
      {widget.type === 'video' ? (
        <>
          <Field label={t('video.channel')}>
            <VideoChannelSelect
              value={typeof widget.props.channelId === 'string' ? widget.props.channelId : undefined}
              onChange={(channelId) => setProps({ channelId: channelId || null })}
              placeholder={t('video.channelPlaceholder')}
              testId="vis-prop-channel"
            />
          </Field>
          <span className="ec-vis__muted">{t('video.notShared')}</span>
        </>
      ) : null}
      {widget.type === 'value' || widget.type === 'gauge' || widget.type === 'chart' ? text('unit', t('props.unit')) : null}
      {widget.type === 'image' ? (
        <Field label={t('props.image')}>
          <ImageUploadField value={typeof widget.props.src === 'string' ? widget.props.src : null} onChange={(src) => setProps({ src })} testId="vis-prop-image" />
        </Field>
      ) : null}
      {widget.type === 'gauge' ? (
        <>
          {number('min', t('props.min'))}
          {number('max', t('props.max'))}
        </>
      ) : null}
      {widget.type === 'button' ? (
        <>
          {text('label', t('props.label'))}
          {text('value', t('props.value'))}
        </>
      ) : null}
      {widget.type === 'switch' || widget.type === 'button' ? (
        <Field label={t('props.confirm')}>
          <Switch checked={widget.props.confirm !== false} onChange={(v: boolean) => setProps({ confirm: v })} aria-label={t('props.confirm')} />
        </Field>
      ) : null}
      <Button status="danger" onClick={props.onRemove} data-testid="vis-prop-remove">
        {t('removeWidget')}
      </Button>
    </div>
  );
}
