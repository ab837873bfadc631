import { describe, expect, it } from 'vitest';
import { listStateFromSearch, listStateToSearch, type FilterKinds, type ListQueryState } from '../../web/lib/use-list.ts';

const defaults: ListQueryState = { page: 1, pageSize: 10, filters: {} };
const categoryFilters: FilterKinds = { name: 'string', status: 'number', type: 'string' };
const productFilters: FilterKinds = { name: 'string', transportType: 'string', isCollect: 'boolean' };

describe('list state in the address bar', () => {
  it('restores page, size, sort and filters with the kinds the page declares', () => {
    const state = listStateFromSearch(categoryFilters, '?page=3&pageSize=50&sortField=name&sortOrder=descend&status=0&type=CUSTOM&name=123', defaults);
    expect(state).toEqual({
      page: 3,
      pageSize: 50,
      sortField: 'name',
      sortOrder: 'descend',
      filters: { status: 0, type: 'CUSTOM', name: '123' },
    });
    expect(listStateFromSearch(productFilters, '?isCollect=true', defaults).filters).toEqual({ isCollect: true });
  });

  it('ignores parameters that are not declared filters, and nonsense paging or numbers', () => {
    const state = listStateFromSearch(categoryFilters, '?view=card&page=0&pageSize=1000&sortOrder=sideways&tab=basic&status=x', defaults);
    expect(state).toEqual(defaults);
  });

  it('writes only what differs from the defaults and keeps other parameters', () => {
    const state: ListQueryState = { page: 2, pageSize: 10, sortField: 'createdTime', sortOrder: 'ascend', filters: { status: 1, name: '' } };
    const search = listStateToSearch(categoryFilters, state, defaults, '?view=card&status=0&page=7');
    expect(new URLSearchParams(search)).toEqual(new URLSearchParams('view=card&page=2&sortField=createdTime&sortOrder=ascend&status=1'));
    expect(listStateToSearch(categoryFilters, defaults, defaults, '?name=x')).toBe('');
  });

  it('reads back what it writes', () => {
    const state: ListQueryState = { page: 4, pageSize: 20, sortField: 'status', sortOrder: 'descend', filters: { transportType: 'TCP', name: '电表', isCollect: false } };
    const search = listStateToSearch(productFilters, state, defaults, '?view=table');
    expect(new URLSearchParams(search).get('view')).toBe('table');
    expect(listStateFromSearch(productFilters, search, defaults)).toEqual(state);
  });
});
