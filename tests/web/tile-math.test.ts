/** The device map's Web Mercator arithmetic (web/features/device/tile-math.ts) and tile addresses (server/contract/rules/tile-url.ts). */
import { describe, expect, it } from 'vitest';
import { tileAddress, tileOrigin } from '../../server/contract/rules/tile-url.ts';
import { toLngLat, toPixel, visibleTiles } from '../../web/features/device/tile-math.ts';

describe('device map tiles', () => {
  it('finds the point it placed: pixel and coordinates convert both ways', () => {
    for (const [longitude, latitude] of [[116.397128, 39.916527], [-70.6693, -33.4489], [0, 0], [179.9, 84]] as const) {
      for (const zoom of [1, 8, 18]) {
        const back = toLngLat(toPixel(longitude, latitude, zoom), zoom);
        expect(back.longitude).toBeCloseTo(longitude, 6);
        expect(back.latitude).toBeCloseTo(latitude, 6);
      }
    }
  });

  it('places the world origin where the tile scheme has it: tile 0/0 at the top left', () => {
    expect(toPixel(-180, 85.05112878, 0)).toEqual({ x: 0, y: expect.closeTo(0, 6) });
    expect(toPixel(0, 0, 1)).toEqual({ x: 256, y: 256 });
  });

  it('covers the view with tiles, wrapping columns around the date line and leaving out rows beyond the poles', () => {
    const tiles = visibleTiles({ x: 0, y: 128 }, 1, 512, 512);
    expect(tiles.map((t) => [t.col, t.x, t.row])).toEqual([
      [-1, 1, 0],
      [0, 0, 0],
      [-1, 1, 1],
      [0, 0, 1],
    ]);
    expect(tiles[0]).toMatchObject({ left: 0, top: 128 });
  });

  it('fills the tile template and reads the origin the console must allow', () => {
    expect(tileAddress('http://10.0.0.5:8080/t/{z}/{x}/{y}.png?s={z}', 3, 5, 2)).toBe('http://10.0.0.5:8080/t/3/5/2.png?s=3');
    expect(tileOrigin('HTTPS://Tiles.Example.com/{z}/{x}/{y}')).toBe('https://tiles.example.com');
    expect(tileOrigin('http://[fd00::5]:81/{z}/{x}/{y}.png')).toBe('http://[fd00::5]:81');
    expect(tileOrigin('http://tiles.example.com:99999/{z}/{x}/{y}.png')).toBeNull();
  });
});
