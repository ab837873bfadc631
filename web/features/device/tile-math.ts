/**
 * Web Mercator arithmetic of the device map (SlippyMap.tsx): the tiles of the standard z/x/y
 * scheme (256 px squares, 2^z per side) that cover a view, and the conversions between a
 * longitude/latitude and a pixel of the world at zoom z.
 */

export const TILE_SIZE = 256;
export const MIN_ZOOM = 1;
export const MAX_ZOOM = 18;
/** Mercator stops here: the square world map's top and bottom edges. */
const LAT_LIMIT = 85.05112878;

export interface Pixel {
  x: number;
  y: number;
}

export interface Tile {
  /** The tile's column as drawn (may lie outside 0…2^z-1 where the world repeats sideways). */
  col: number;
  row: number;
  /** The column asked of the tile server: `col` wrapped into the world. */
  x: number;
  /** Offset of the tile's top-left corner from the view's top-left corner, in px. */
  left: number;
  top: number;
}

function worldSize(zoom: number): number {
  return TILE_SIZE * 2 ** zoom;
}

export function toPixel(longitude: number, latitude: number, zoom: number): Pixel {
  const lat = Math.max(-LAT_LIMIT, Math.min(LAT_LIMIT, latitude));
  const sin = Math.sin((lat * Math.PI) / 180);
  const size = worldSize(zoom);
  return {
    x: ((longitude + 180) / 360) * size,
    y: (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * size,
  };
}

/** The longitude (wrapped into -180…180) and latitude of a world pixel at `zoom`. */
export function toLngLat(pixel: Pixel, zoom: number): { longitude: number; latitude: number } {
  const size = worldSize(zoom);
  const longitude = ((((pixel.x / size) * 360) % 360) + 360) % 360 - 180;
  const n = Math.PI * (1 - (2 * pixel.y) / size);
  const latitude = (Math.atan(Math.sinh(n)) * 180) / Math.PI;
  return { longitude, latitude: Math.max(-LAT_LIMIT, Math.min(LAT_LIMIT, latitude)) };
}

/** Keeps a view's centre inside the world vertically (no grey band above the top edge when possible). */
export function clampCenter(center: Pixel, zoom: number, height: number): Pixel {
  const size = worldSize(zoom);
  const half = Math.min(height / 2, size / 2);
  return { x: center.x, y: Math.max(half, Math.min(size - half, center.y)) };
}

/** The tiles covering a `width` × `height` view centred on `center` (a world pixel at `zoom`). */
export function visibleTiles(center: Pixel, zoom: number, width: number, height: number): Tile[] {
  const count = 2 ** zoom;
  const originX = center.x - width / 2;
  const originY = center.y - height / 2;
  const tiles: Tile[] = [];
  for (let row = Math.floor(originY / TILE_SIZE); row <= Math.floor((originY + height - 1) / TILE_SIZE); row++) {
    if (row < 0 || row >= count) continue;
    for (let col = Math.floor(originX / TILE_SIZE); col <= Math.floor((originX + width - 1) / TILE_SIZE); col++) {
      tiles.push({ col, row, x: ((col % count) + count) % count, left: col * TILE_SIZE - originX, top: row * TILE_SIZE - originY });
    }
  }
  return tiles;
}

/** Rounds a picked coordinate to 6 decimals (about 0.1 m), what a person would type. */
export function roundCoordinate(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
