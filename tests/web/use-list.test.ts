import { describe, expect, it } from 'vitest';
import { categoryRoutes } from '../../server/contract/category.ts';
import { productRoutes } from '../../server/contract/product.ts';
import { listStateFromSearch, listStateToSearch, type ListQueryState } from '../../web/lib/use-list.ts';

const defaults: ListQueryState = { page: 1, pageSize: 10, filters: {} };

describe('list state in the address bar', () => {
  it('restores page, size, sort and filters with the types the route query gives them', () => {
    const state = listStateFromSearch(categoryRoutes.list, '?page=3&pageSize=50&sortField=name&sortOrder=descend&status=0&type=CUSTOM&name=123', defaults);
    expect(state).toEqual({
      page: 3,
      pageSize: 50,
      sortField: 'name',
      sortOrder: 'descend',
      filters: { status: 0, type: 'CUSTOM', name: '123' },
    });
  });

  it('ignores parameters that are not filters of the route, and nonsense paging', () => {
    const state = listStateFromSearch(productRoutes.list, '?view=card&page=0&pageSize=1000&sortOrder=sideways&tab=basic', defaults);
    expect(state).toEqual(defaults);
  });

  it('writes only what differs from the defaults and keeps other parameters', () => {
    const state: ListQueryState = { page: 2, pageSize: 10, sortField: 'createdTime', sortOrder: 'ascend', filters: { status: 1, name: '' } };
    const search = listStateToSearch(categoryRoutes.list, state, defaults, '?view=card&status=0&page=7');
    expect(new URLSearchParams(search)).toEqual(new URLSearchParams('view=card&page=2&sortField=createdTime&sortOrder=ascend&status=1'));
    expect(listStateToSearch(categoryRoutes.list, defaults, defaults, '?name=x')).toBe('');
  });

  it('reads back what it writes', () => {
    const state: ListQueryState = { page: 4, pageSize: 20, sortField: 'status', sortOrder: 'descend', filters: { transportType: 'TCP', name: '电表' } };
    const search = listStateToSearch(productRoutes.list, state, defaults, '');
    expect(listStateFromSearch(productRoutes.list, search, defaults)).toEqual(state);
  });
});
