/**
 * State and fetching of one paged contract list (`{ items, total }` answers): page, page size,
 * sort and filters, optionally mirrored in the address bar so a reload, the back button or a
 * shared link shows the same page. `ResourceTable` renders what this hook holds.
 *
 * @example
 * const list = useList(categoryRoutes.list, { urlFilters: { name: 'string', status: 'number', type: 'string' } });
 * // list.items, list.total, list.loading; list.setFilters({ name: 'x' }); await list.refresh();
 * return <ResourceTable list={list} rowKey="id" columns={columns} />;
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { RouteDef } from '../../server/contract/route.ts';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type SortOrder } from '../../server/contract/common.ts';
import { api, ApiError, isCancelled, type CallOptions, type QueryOf, type ResponseOf } from './api-client.ts';

/** Item type of a paged route. */
export type ItemOf<R extends RouteDef> = ResponseOf<R> extends { items: readonly (infer T)[] } ? T : never;

type ReservedQuery = 'page' | 'pageSize' | 'sortField' | 'sortOrder';
/** The list's own filters: the route's query without paging and sorting. */
export type FiltersOf<R extends RouteDef> = Partial<Omit<NonNullable<QueryOf<R>>, ReservedQuery>>;

/** What a list view needs, independent of the route it came from. */
export interface ListController<T, F extends object = Record<string, unknown>> {
  items: T[];
  total: number;
  loading: boolean;
  /** Failure of the last load (the client already showed its message); null after a success. */
  error: ApiError | null;
  page: number;
  pageSize: number;
  sortField: string | undefined;
  sortOrder: SortOrder | undefined;
  filters: F;
  setPage: (page: number, pageSize?: number) => void;
  /** No field (or no order) returns to the server's default order. */
  setSort: (field: string | undefined, order: SortOrder | undefined) => void;
  /** Replaces the filters and goes back to page 1. */
  setFilters: (filters: F) => void;
  /** Loads the current page again (after a create, edit or delete). */
  refresh: () => Promise<void>;
}

export interface UseListOptions<R extends RouteDef> {
  /** Path parameters of the route, if it has any. */
  params?: CallOptions<R>['params'];
  /** Filters of the first load, and what "reset" returns to. */
  initialFilters?: FiltersOf<R>;
  defaultPageSize?: number;
  /**
   * Mirror page, size, sort and the filters named in `urlFilters` in the address bar's query
   * (default true). Only one list on a page should: a second list (e.g. in a detail tab) passes false.
   */
  syncUrl?: boolean;
  /** Filters kept in the address bar, with the kind of each value (`{ name: 'string', status: 'number' }`). */
  urlFilters?: { readonly [K in keyof FiltersOf<R>]?: FilterKind };
  /** False holds the load back (e.g. until a parent id is known). */
  enabled?: boolean;
  /**
   * Query properties every request carries whatever the filters say (a detail tab listing one
   * parent's children): not shown, not reset, not in the address bar.
   */
  scope?: FiltersOf<R>;
  /** The whole answer of each load, for what a route returns beside its rows (e.g. counts). */
  onLoaded?: (res: ResponseOf<R>) => void;
}

/** Page, size, sort and filters of a list, as kept in the address bar. */
export interface ListQueryState {
  page: number;
  pageSize: number;
  sortField?: string;
  sortOrder?: SortOrder;
  filters: Record<string, unknown>;
}

const reserved: readonly string[] = ['page', 'pageSize', 'sortField', 'sortOrder'];

/** How a filter's value reads back from the address bar, where every value is text. */
export type FilterKind = 'string' | 'number' | 'boolean';
/**
 * The filters a list keeps in the address bar, with their kinds. Declared by the page: in the
 * browser the contract's schemas are inert stand-ins (web/lib/typebox-shim.ts), so they cannot tell.
 */
export type FilterKinds = Readonly<Record<string, FilterKind>>;

/**
 * The list state an address-bar query describes, on top of `base`. Declared filters get their
 * kind back (an integer status, a boolean flag); other parameters are left alone.
 */
export function listStateFromSearch(kinds: FilterKinds, search: string, base: ListQueryState): ListQueryState {
  const query = new URLSearchParams(search);
  const state: ListQueryState = { ...base, filters: { ...base.filters } };
  const page = Number(query.get('page'));
  const pageSize = Number(query.get('pageSize'));
  if (Number.isInteger(page) && page >= 1) state.page = page;
  if (Number.isInteger(pageSize) && pageSize >= 1 && pageSize <= MAX_PAGE_SIZE) state.pageSize = pageSize;
  const order = query.get('sortOrder');
  if (query.get('sortField') && (order === 'ascend' || order === 'descend')) {
    state.sortField = query.get('sortField') ?? undefined;
    state.sortOrder = order;
  }
  for (const [key, raw] of query) {
    if (reserved.includes(key)) continue;
    const type = kinds[key];
    if (!type) continue; // not a filter of this list (another component's parameter)
    if (type === 'number') {
      const n = Number(raw);
      if (raw !== '' && Number.isFinite(n)) state.filters[key] = n;
    } else if (type === 'boolean') {
      if (raw === 'true' || raw === 'false') state.filters[key] = raw === 'true';
    } else state.filters[key] = raw;
  }
  return state;
}

/**
 * `search` (the current address-bar query) with this list's parameters replaced by `state`;
 * defaults are left out and other parameters kept. Returns '' or a string starting with '?'.
 */
export function listStateToSearch(kinds: FilterKinds, state: ListQueryState, defaults: ListQueryState, search: string): string {
  const query = new URLSearchParams(search);
  for (const key of [...query.keys()]) if (reserved.includes(key) || key in kinds) query.delete(key);
  if (state.page !== 1) query.set('page', String(state.page));
  if (state.pageSize !== defaults.pageSize) query.set('pageSize', String(state.pageSize));
  if (state.sortField && state.sortOrder) {
    query.set('sortField', state.sortField);
    query.set('sortOrder', state.sortOrder);
  }
  for (const [key, value] of Object.entries(state.filters)) {
    if (!(key in kinds) || value === undefined || value === null || value === '') continue;
    query.set(key, String(value));
  }
  const qs = query.toString();
  return qs ? `?${qs}` : '';
}

function cleanFilters(filters: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === null) continue;
    const v = typeof value === 'string' ? value.trim() : value;
    if (v !== '') out[key] = v;
  }
  return out;
}

export function useList<R extends RouteDef>(
  route: R,
  options: UseListOptions<R> = {},
): ListController<ItemOf<R>, FiltersOf<R>> {
  const { syncUrl = true, enabled = true } = options;
  const kinds = (options.urlFilters ?? {}) as FilterKinds;
  const defaults = useMemo<ListQueryState>(
    () => ({
      page: 1,
      pageSize: options.defaultPageSize ?? DEFAULT_PAGE_SIZE,
      filters: cleanFilters((options.initialFilters ?? {}) as Record<string, unknown>),
    }),
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- the first render's options define the defaults; later changes of the literal are ignored.
    [],
  );
  const [state, setState] = useState<ListQueryState>(() =>
    syncUrl ? listStateFromSearch(kinds, window.location.search, defaults) : defaults,
  );
  const [items, setItems] = useState<ItemOf<R>[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const requestSeq = useRef(0);
  const onLoaded = useRef(options.onLoaded);
  onLoaded.current = options.onLoaded;
  const paramsKey = JSON.stringify(options.params ?? null);

  const load = useCallback(async (): Promise<void> => {
    const seq = ++requestSeq.current;
    setLoading(true);
    try {
      const query = { page: state.page, pageSize: state.pageSize, sortField: state.sortField, sortOrder: state.sortOrder, ...state.filters, ...options.scope };
      const res = (await api(route, {
        params: options.params,
        query: query as unknown as CallOptions<R>['query'],
      } as CallOptions<R>)) as { items: ItemOf<R>[]; total: number };
      if (seq !== requestSeq.current) return;
      // The last rows of a page were deleted: show the new last page instead of an empty one.
      if (res.items.length === 0 && res.total > 0 && state.page > 1) {
        setState((s) => ({ ...s, page: Math.max(1, Math.ceil(res.total / s.pageSize)) }));
        return;
      }
      setItems(res.items);
      setTotal(res.total);
      setError(null);
      onLoaded.current?.(res as ResponseOf<R>);
    } catch (err) {
      if (isCancelled(err) || seq !== requestSeq.current) return;
      setError(err instanceof ApiError ? err : null);
    } finally {
      if (seq === requestSeq.current) setLoading(false);
    }
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- paramsKey stands for options.params (a fresh object each render).
  }, [route, state, paramsKey]);

  useEffect(() => {
    if (enabled) void load();
  }, [load, enabled]);

  useEffect(() => {
    if (!syncUrl) return;
    const search = listStateToSearch(kinds, state, defaults, window.location.search);
    if (search !== window.location.search) {
      window.history.replaceState(window.history.state, '', `${window.location.pathname}${search}${window.location.hash}`);
    }
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- kinds: the first render's declaration, like defaults.
  }, [syncUrl, state, defaults]);

  return {
    items,
    total,
    loading,
    error,
    page: state.page,
    pageSize: state.pageSize,
    sortField: state.sortField,
    sortOrder: state.sortOrder,
    filters: state.filters as FiltersOf<R>,
    setPage: useCallback((page: number, pageSize?: number) => {
      setState((s) => {
        const size = pageSize ?? s.pageSize;
        return { ...s, page: size !== s.pageSize ? 1 : page, pageSize: size };
      });
    }, []),
    setSort: useCallback((field: string | undefined, order: SortOrder | undefined) => {
      setState((s) => (field && order ? { ...s, sortField: field, sortOrder: order, page: 1 } : { ...s, sortField: undefined, sortOrder: undefined, page: 1 }));
    }, []),
    setFilters: useCallback((filters: FiltersOf<R>) => {
      setState((s) => ({ ...s, page: 1, filters: cleanFilters(filters as Record<string, unknown>) }));
    }, []),
    refresh: load,
  };
}
