/**
 * A small map of tiles from the configured tile server (system configuration; an on-site server,
 * since a gateway's LAN often has no internet): tiles as <img> in a positioned grid, a marker, +/-
 * zoom buttons, drag to pan, and with `onPick` a click (or Enter at the centre cross) sets the
 * point. Keyboard: arrows pan, + and - zoom, Enter picks. A tile that fails to load is reported
 * once through `onTilesFailed`, so the caller falls back to the coordinate fields.
 * A map library (leaflet is ~40 KB gzip with its CSS) would do more than this needs.
 */
import { useEffect, useLayoutEffect, useRef, useState, type JSX, type KeyboardEvent, type PointerEvent } from 'react';
import IconMinus from '@arco-design/web-react/icon/react-icon/IconMinus';
import IconPlus from '@arco-design/web-react/icon/react-icon/IconPlus';
import { useTranslation } from 'react-i18next';
import { tileAddress } from '../../../server/contract/rules/tile-url.ts';
import { clampCenter, MAX_ZOOM, MIN_ZOOM, roundCoordinate, toLngLat, toPixel, visibleTiles, type Pixel } from './tile-math.ts';

export interface LngLat {
  longitude: number;
  latitude: number;
}

export interface SlippyMapProps {
  tileUrl: string;
  point: LngLat | null;
  onPick?: (point: LngLat) => void;
  onTilesFailed: () => void;
  height?: number;
  testId?: string;
}

const PAN_STEP = 64;
const DRAG_THRESHOLD = 5;
const POINT_ZOOM = 12;
const WORLD_ZOOM = 2;

export function SlippyMap({ tileUrl, point, onPick, onTilesFailed, height = 240, testId = 'location-tile-map' }: SlippyMapProps): JSX.Element {
  const { t } = useTranslation('device');
  const viewport = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(480);
  const [zoom, setZoom] = useState(point ? POINT_ZOOM : WORLD_ZOOM);
  const [center, setCenter] = useState<Pixel>(() => toPixel(point?.longitude ?? 0, point?.latitude ?? 20, point ? POINT_ZOOM : WORLD_ZOOM));
  const picked = useRef<LngLat | null>(null);
  const drag = useRef<{ x: number; y: number; moved: boolean } | null>(null);
  const failed = useRef(false);

  // The width follows the layout (a dialog settling, a window resized): tiles and clicks use it.
  useLayoutEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const measure = (): void => {
      if (el.clientWidth) setWidth(el.clientWidth);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // A point typed into the fields (not one just picked on the map) is brought into view.
  useEffect(() => {
    if (!point) return;
    const last = picked.current;
    if (last && last.longitude === point.longitude && last.latitude === point.latitude) return;
    setCenter(toPixel(point.longitude, point.latitude, zoom));
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- only the point moves the view here; zooming keeps its own centre.
  }, [point?.longitude, point?.latitude]);

  const view = clampCenter(center, zoom, height);
  const tiles = visibleTiles(view, zoom, width, height);
  const marker = point ? toPixel(point.longitude, point.latitude, zoom) : null;

  const zoomTo = (next: number): void => {
    const z = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, next));
    if (z === zoom) return;
    const scale = 2 ** (z - zoom);
    setCenter({ x: view.x * scale, y: view.y * scale });
    setZoom(z);
  };

  const pickAt = (offsetX: number, offsetY: number): void => {
    if (!onPick) return;
    const at = toLngLat({ x: view.x - width / 2 + offsetX, y: view.y - height / 2 + offsetY }, zoom);
    const next = { longitude: roundCoordinate(at.longitude), latitude: roundCoordinate(at.latitude) };
    picked.current = next;
    onPick(next);
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>): void => {
    drag.current = { x: e.clientX, y: e.clientY, moved: false };
    e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>): void => {
    const d = drag.current;
    if (!d) return;
    const dx = e.clientX - d.x;
    const dy = e.clientY - d.y;
    if (!d.moved && Math.hypot(dx, dy) < DRAG_THRESHOLD) return;
    d.moved = true;
    d.x = e.clientX;
    d.y = e.clientY;
    setCenter({ x: view.x - dx, y: view.y - dy });
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>): void => {
    const d = drag.current;
    drag.current = null;
    if (!d || d.moved) return;
    const box = e.currentTarget.getBoundingClientRect();
    pickAt(e.clientX - box.left, e.clientY - box.top);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    const pan: Record<string, [number, number]> = {
      ArrowLeft: [-PAN_STEP, 0],
      ArrowRight: [PAN_STEP, 0],
      ArrowUp: [0, -PAN_STEP],
      ArrowDown: [0, PAN_STEP],
    };
    const step = pan[e.key];
    if (step) setCenter({ x: view.x + step[0], y: view.y + step[1] });
    else if (e.key === '+' || e.key === '=') zoomTo(zoom + 1);
    else if (e.key === '-' || e.key === '_') zoomTo(zoom - 1);
    else if ((e.key === 'Enter' || e.key === ' ') && onPick) pickAt(width / 2, height / 2);
    else return;
    e.preventDefault();
  };

  const tileFailed = (): void => {
    if (failed.current) return;
    failed.current = true;
    onTilesFailed();
  };

  return (
    <div className="ec-tile-map" data-testid={testId}>
      <div
        ref={viewport}
        className={`ec-tile-map__view${onPick ? ' ec-tile-map__view--pick' : ''}`}
        style={{ height }}
        role="application"
        aria-label={onPick ? t('map.labelPick') : t('map.label')}
        aria-describedby={`${testId}-keys`}
        tabIndex={0}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => (drag.current = null)}
        onKeyDown={onKeyDown}
        data-testid={`${testId}-view`}
        data-zoom={zoom}
      >
        {tiles.map((tile) => (
          <img
            key={`${zoom}/${tile.col}/${tile.row}`}
            className="ec-tile-map__tile"
            src={tileAddress(tileUrl, zoom, tile.x, tile.row)}
            alt=""
            draggable={false}
            style={{ left: tile.left, top: tile.top }}
            onError={tileFailed}
            data-testid="map-tile"
          />
        ))}
        {marker ? (
          <span
            className="ec-tile-map__marker"
            style={{ left: marker.x - view.x + width / 2, top: marker.y - view.y + height / 2 }}
            aria-hidden="true"
            data-testid={`${testId}-marker`}
          />
        ) : null}
        {onPick ? <span className="ec-tile-map__cross" aria-hidden="true" /> : null}
      </div>
      <div className="ec-tile-map__zoom">
        <button type="button" onClick={() => zoomTo(zoom + 1)} disabled={zoom >= MAX_ZOOM} aria-label={t('map.zoomIn')} data-testid={`${testId}-zoom-in`}>
          <IconPlus />
        </button>
        <button type="button" onClick={() => zoomTo(zoom - 1)} disabled={zoom <= MIN_ZOOM} aria-label={t('map.zoomOut')} data-testid={`${testId}-zoom-out`}>
          <IconMinus />
        </button>
      </div>
      <p id={`${testId}-keys`} className="ec-tile-map__hint">
        {onPick ? t('map.hintPick') : t('map.hint')}
      </p>
    </div>
  );
}
