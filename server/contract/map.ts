/**
 * Map settings of the system configuration: where the console loads map tiles from. The gateway's
 * LAN often has no internet, so there is no default: null shows no map, only the coordinate
 * fields. The rule of the URL is server/contract/rules/tile-url.ts; its origin is added to the
 * console's `img-src` (server/plugins/static.ts) and nothing else is.
 */
import Type, { type Static } from 'typebox';
import { ErrorBodySchema } from './errors.ts';
import { defineRoutes } from './route.ts';
import { TILE_URL_MAX } from './rules/tile-url.ts';

export const MapSettingsSchema = Type.Object(
  {
    /** `http(s)://host[:port]/…{z}…{x}…{y}…`; null or empty text: no map. */
    tileUrl: Type.Union([Type.String({ maxLength: TILE_URL_MAX }), Type.Null()]),
  },
  { additionalProperties: false },
);
export type MapSettings = Static<typeof MapSettingsSchema>;

export const mapRoutes = defineRoutes({
  get: {
    method: 'GET',
    url: '/api/yt/configuration/map',
    schema: { tags: ['map'], summary: 'Map tile URL (null: no map)', response: { 200: MapSettingsSchema } },
    config: { access: 'user', permission: 'map:view' },
  },
  save: {
    method: 'PUT',
    url: '/api/yt/configuration/map',
    schema: {
      tags: ['map'],
      summary: 'Store the map tile URL (null or empty: no map); its origin is allowed in the console CSP img-src',
      body: MapSettingsSchema,
      response: { 200: MapSettingsSchema, 400: ErrorBodySchema },
    },
    config: { access: 'user', permission: 'system:config' },
  },
});
