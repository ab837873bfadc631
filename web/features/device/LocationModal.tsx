/**
 * A device's position: longitude and latitude with their range
 * checks, both or neither, and an address. The gateway's LAN often has no internet: with a tile
 * server configured (system configuration) a tile map shows the point and a click sets it;
 * without one, or when its tiles do not load, the coordinates are typed and a small grid map shows
 * roughly where the point lies.
 */
import { useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Message from '@arco-design/web-react/es/Message';
import Space from '@arco-design/web-react/es/Space';
import { useTranslation } from 'react-i18next';
import type { Device } from '../../../server/contract/device.ts';
import { DESCRIPTION_MAX } from '../../../server/contract/validation.ts';
import { FormError } from '../../components/FormError.tsx';
import { GuardedModal } from '../../components/GuardedModal.tsx';
import { errorMessage, serverFieldErrors } from '../../lib/error-text.ts';
import { problemText } from '../../lib/form-rules.ts';
import { setLocation } from './deviceApi.ts';
import { locationBody, locationFormProblems, mapPoint, parseCoordinate, type LocationInput } from './locationForm.ts';
import { useTileUrl } from './mapSettingsApi.ts';
import { SlippyMap, type LngLat } from './SlippyMap.tsx';

export interface LocationModalProps {
  device: Device | null;
  onClose: () => void;
  onSaved: (device: Device) => void;
}

interface LocationValues {
  longitude: string;
  latitude: string;
  address: string;
}

export function LocationModal({ device, onClose, onSaved }: LocationModalProps): JSX.Element {
  const { t } = useTranslation('device');
  return (
    <GuardedModal visible={!!device} title={t('location.title', { name: device?.alias || device?.name || '' })} width={560} onClose={onClose}>
      {({ setDirty, requestClose, close }) =>
        device ? (
          <LocationForm
            device={device}
            onDirty={setDirty}
            onCancel={requestClose}
            onSaved={(saved) => {
              close();
              onSaved(saved);
            }}
          />
        ) : null
      }
    </GuardedModal>
  );
}

const fields = ['longitude', 'latitude', 'address'] as const;

function LocationForm({
  device,
  onDirty,
  onCancel,
  onSaved,
}: {
  device: Device;
  onDirty: (dirty: boolean) => void;
  onCancel: () => void;
  onSaved: (device: Device) => void;
}): JSX.Element {
  const { t } = useTranslation(['device', 'errors', 'common']);
  const [form] = Form.useForm<LocationValues>();
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const initial: LocationValues = {
    longitude: device.longitude === null ? '' : String(device.longitude),
    latitude: device.latitude === null ? '' : String(device.latitude),
    address: device.address ?? '',
  };
  const [current, setCurrent] = useState<LocationValues>(initial);
  const tileUrl = useTileUrl();
  const [tilesFailed, setTilesFailed] = useState(false);
  const showTiles = !!tileUrl && !tilesFailed;

  const rule = (field: (typeof fields)[number]) => ({
    validator: (_: unknown, cb: (error?: string) => void) => {
      const found = locationFormProblems(form.getFieldsValue() as LocationInput)[field];
      cb(found ? problemText(found) : undefined);
    },
  });

  const submit = async (values: LocationValues): Promise<void> => {
    setSaving(true);
    setFailure(null);
    try {
      const saved = await setLocation(device.id, locationBody(values));
      Message.success(t('location.saved'));
      onSaved(saved);
    } catch (err) {
      setSaving(false);
      const mapped = serverFieldErrors(err, values, fields);
      if (mapped) form.setFields(mapped);
      else setFailure(errorMessage(err));
    }
  };

  const pick = (point: LngLat): void => {
    const next = { ...current, longitude: String(point.longitude), latitude: String(point.latitude) };
    form.setFieldsValue({ longitude: next.longitude, latitude: next.latitude });
    setCurrent(next);
    onDirty(fields.some((f) => next[f].trim() !== initial[f]));
    void form.validate(['longitude', 'latitude']).catch(() => undefined);
  };

  return (
    <Form<LocationValues>
      form={form}
      layout="vertical"
      initialValues={initial}
      onSubmit={(values) => void submit(values)}
      disabled={saving}
      onValuesChange={(changed, all) => {
        const next = { ...initial, ...all };
        setCurrent(next);
        onDirty(fields.some((f) => (next[f] ?? '').trim() !== initial[f]));
        // Both-or-neither depends on the other field: re-check it once it has been touched.
        const other = 'longitude' in changed ? 'latitude' : 'latitude' in changed ? 'longitude' : null;
        if (other && form.getTouchedFields().includes(other)) void form.validate([other]).catch(() => undefined);
      }}
    >
      <div className={showTiles ? 'ec-location ec-location--tiles' : 'ec-location'}>
        <div className="ec-location__fields">
          <Form.Item field="longitude" label={t('fields.longitude')} rules={[rule('longitude')]} extra={t('location.longitudeHint')}>
            <Input placeholder="116.397128" inputMode="decimal" autoComplete="off" data-testid="location-longitude" />
          </Form.Item>
          <Form.Item field="latitude" label={t('fields.latitude')} rules={[rule('latitude')]} extra={t('location.latitudeHint')}>
            <Input placeholder="39.916527" inputMode="decimal" autoComplete="off" data-testid="location-latitude" />
          </Form.Item>
        </div>
        {showTiles ? null : <LocationPreview longitude={parseCoordinate(current.longitude)} latitude={parseCoordinate(current.latitude)} />}
      </div>
      {showTiles ? (
        <SlippyMap tileUrl={tileUrl} point={validPoint(current)} onPick={pick} onTilesFailed={() => setTilesFailed(true)} />
      ) : null}
      {tileUrl && tilesFailed ? (
        <Alert type="warning" className="ec-location__tiles-failed" content={t('map.tilesFailed', { host: tileHost(tileUrl) })} data-testid="location-tiles-failed" />
      ) : null}
      <Form.Item field="address" label={t('fields.address')} rules={[rule('address')]}>
        <Input.TextArea maxLength={DESCRIPTION_MAX} showWordLimit autoSize={{ minRows: 2, maxRows: 4 }} data-testid="location-address" />
      </Form.Item>
      <FormError message={failure} testId="location-error" />
      <div className="ec-modal-footer ec-modal-footer--split">
        <Button
          type="text"
          onClick={() => {
            form.setFieldsValue({ longitude: '', latitude: '', address: '' });
            setCurrent({ longitude: '', latitude: '', address: '' });
            onDirty(fields.some((f) => initial[f] !== ''));
          }}
          data-testid="location-clear"
        >
          {t('location.clear')}
        </Button>
        <Space>
          <Button onClick={onCancel} data-testid="location-cancel">
            {t('common:cancel')}
          </Button>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="location-submit">
            {t('common:save')}
          </Button>
        </Space>
      </div>
    </Form>
  );
}

/** The typed point when both coordinates are numbers in range, for the tile map's marker. */
function validPoint(values: LocationValues): LngLat | null {
  const longitude = parseCoordinate(values.longitude);
  const latitude = parseCoordinate(values.latitude);
  if (longitude === null || latitude === null || !Number.isFinite(longitude) || !Number.isFinite(latitude)) return null;
  return Math.abs(longitude) <= 180 && Math.abs(latitude) <= 90 ? { longitude, latitude } : null;
}

function tileHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

const MAP_W = 180;
const MAP_H = 90;

/** A 30° grid of the world with the point on it: enough to catch swapped or mistyped coordinates. */
export function LocationPreview({ longitude, latitude }: { longitude: number | null; latitude: number | null }): JSX.Element {
  const { t } = useTranslation('device');
  const valid =
    longitude !== null && latitude !== null && Number.isFinite(longitude) && Number.isFinite(latitude) && Math.abs(longitude) <= 180 && Math.abs(latitude) <= 90;
  const point = valid ? mapPoint(longitude, latitude, MAP_W, MAP_H) : null;
  const meridians = Array.from({ length: 11 }, (_, i) => ((i + 1) * MAP_W) / 12);
  const parallels = Array.from({ length: 5 }, (_, i) => ((i + 1) * MAP_H) / 6);
  return (
    <figure className="ec-location-map" data-testid="location-map">
      <svg viewBox={`0 0 ${MAP_W} ${MAP_H}`} role="img" aria-label={valid ? t('location.mapPoint', { longitude, latitude }) : t('location.mapEmpty')}>
        <rect x="0" y="0" width={MAP_W} height={MAP_H} className="ec-location-map__sea" />
        {meridians.map((x) => (
          <line key={`m${x}`} x1={x} y1="0" x2={x} y2={MAP_H} className={x === MAP_W / 2 ? 'ec-location-map__axis' : 'ec-location-map__grid'} />
        ))}
        {parallels.map((y) => (
          <line key={`p${y}`} x1="0" y1={y} x2={MAP_W} y2={y} className={y === MAP_H / 2 ? 'ec-location-map__axis' : 'ec-location-map__grid'} />
        ))}
        {point ? (
          <g data-testid="location-map-point">
            <circle cx={point.x} cy={point.y} r="6" className="ec-location-map__halo" />
            <circle cx={point.x} cy={point.y} r="2.5" className="ec-location-map__point" />
          </g>
        ) : null}
      </svg>
      <figcaption>
        {valid ? `${formatCoordinate(latitude, 'NS')}  ${formatCoordinate(longitude, 'EW')}` : t('location.mapEmpty')}
      </figcaption>
    </figure>
  );
}

function formatCoordinate(value: number, hemispheres: 'NS' | 'EW'): string {
  const letter = value >= 0 ? hemispheres[0] : hemispheres[1];
  return `${Math.abs(value).toFixed(4)}° ${letter}`;
}
