import { describe, expect, it } from 'vitest';
import { categoryRoutes } from '../../server/contract/category.ts';
import { commandRoutes } from '../../server/contract/command.ts';
import { MAX_PAGE } from '../../server/contract/common.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { eventRecordRoutes } from '../../server/contract/event-record.ts';
import { organizationRoutes } from '../../server/contract/organization.ts';
import { productRoutes } from '../../server/contract/product.ts';
import type { RouteDef } from '../../server/contract/route.ts';
import { thingModelRoutes } from '../../server/contract/thing-model.ts';
import { makeDeviceApp } from '../helpers/devices.ts';
import { expectError } from '../helpers/error-body.ts';

describe('list paging', () => {
  it('refuses a page number past the highest with 400 on every list, and answers the highest page empty', async () => {
    const { api } = await makeDeviceApp();
    const device = await api.createDevice();
    const lists: [RouteDef, Record<string, string>][] = [
      [deviceRoutes.list, {}],
      [productRoutes.list, {}],
      [organizationRoutes.list, {}],
      [categoryRoutes.list, {}],
      [commandRoutes.list, { id: device.id }],
      [eventRecordRoutes.list, { id: device.id }],
      [thingModelRoutes.list, { deviceProfileId: device.deviceProfileId }],
    ];
    for (const [route, params] of lists) {
      for (const page of ['100000000000000000000', String(MAX_PAGE + 1)]) {
        const body = expectError(await api.call(route, { params, query: { page, pageSize: 100 } }), 400, 31, 'error.validation');
        expect(body.details?.[0]?.field, route.url).toBe('querystring.page');
      }
      const last = await api.call(route, { params, query: { page: MAX_PAGE, pageSize: 100 } });
      expect(last.statusCode, `${route.url}: ${last.body}`).toBe(200);
      expect(last.json<{ items: unknown[] }>().items).toEqual([]);
    }
  });
});
