/**
 * The port range of the system configuration: the ports the gateway assigns dynamically (Node-RED
 * instances today). Two whole numbers from 1024 to 65535, the first below the second
 * (`error.portRange.order` on `end`). Until saved, 30000–30999.
 */
import Type, { type Static } from 'typebox';
import { ErrorBodySchema } from './errors.ts';
import { defineRoutes } from './route.ts';

export const PORT_RANGE_DEFAULT = { start: 30000, end: 30999 } as const;
const PortSchema = Type.Integer({ minimum: 1024, maximum: 65535 });

export const PortRangeSchema = Type.Object({ start: PortSchema, end: PortSchema }, { additionalProperties: false });
export type PortRange = Static<typeof PortRangeSchema>;

/** The rule between the two ends, shared by the server and the console's form. */
export function portRangeProblem(range: PortRange): 'error.portRange.order' | null {
  return range.start < range.end ? null : 'error.portRange.order';
}

export const portRangeRoutes = defineRoutes({
  get: {
    method: 'GET',
    url: '/api/yt/configuration/port_range',
    schema: { tags: ['port-range'], summary: 'The range dynamic ports are assigned from', response: { 200: PortRangeSchema } },
    config: { access: 'user', permission: 'system:config' },
  },
  save: {
    method: 'PUT',
    url: '/api/yt/configuration/port_range',
    schema: {
      tags: ['port-range'],
      summary: 'Store the port range (applies to ports assigned from now on)',
      body: PortRangeSchema,
      response: { 200: PortRangeSchema, 400: ErrorBodySchema },
    },
    config: { access: 'user', permission: 'system:config' },
  },
});
