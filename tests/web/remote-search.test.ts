import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchEach, RemoteSearch, REMOTE_SEARCH_DEBOUNCE_MS, type RemotePage, type RemoteSearchState } from '../../web/components/remote-search.ts';

interface Row {
  id: string;
}

/** A server of `count` rows named `row-<n>`, answering a substring search in pages of `size`. */
function fakeServer(count: number, size = 3) {
  const rows = Array.from({ length: count }, (_, i) => ({ id: `row-${i + 1}` }));
  const calls: { text: string; page: number }[] = [];
  const pending: { resolve: () => void }[] = [];
  let hold = false;
  const fetchPage = (text: string, page: number): Promise<RemotePage<Row>> => {
    calls.push({ text, page });
    const matching = rows.filter((r) => r.id.includes(text));
    const answer = { items: matching.slice((page - 1) * size, page * size), total: matching.length };
    if (!hold) return Promise.resolve(answer);
    return new Promise((resolve) => pending.push({ resolve: () => resolve(answer) }));
  };
  return {
    calls,
    fetchPage,
    holdAnswers: () => (hold = true),
    /** Answers the held calls in the order given (indexes into the calls held). */
    answer: (...order: number[]) => order.forEach((i) => pending[i]!.resolve()),
  };
}

function searchOver(server: ReturnType<typeof fakeServer>) {
  const states: RemoteSearchState<Row>[] = [];
  const search = new RemoteSearch<Row>({ fetchPage: server.fetchPage, keyOf: (r) => r.id, onChange: (s) => states.push(s) });
  return { search, states, last: () => states[states.length - 1]! };
}

const ids = (s: RemoteSearchState<Row>): string[] => s.items.map((r) => r.id);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('searching the server from a select', () => {
  it('asks once, after typing pauses, for the last text typed', async () => {
    const server = fakeServer(30);
    const { search, last } = searchOver(server);
    search.type('r');
    search.type('ro');
    search.type('row-2');
    await vi.advanceTimersByTimeAsync(REMOTE_SEARCH_DEBOUNCE_MS - 1);
    expect(server.calls).toEqual([]);
    expect(last().loading).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.calls).toEqual([{ text: 'row-2', page: 1 }]);
    expect(last()).toMatchObject({ text: 'row-2', loading: false, total: 11 });
    expect(ids(last())).toEqual(['row-2', 'row-20', 'row-21']);
  });

  it('appends the next pages until the total is reached, then asks no more', async () => {
    const server = fakeServer(7);
    const { search, last } = searchOver(server);
    search.search('');
    await vi.runAllTimersAsync();
    expect(search.hasMore).toBe(true);
    search.more();
    search.more(); // a second call while the page is on its way is ignored
    await vi.runAllTimersAsync();
    search.more();
    await vi.runAllTimersAsync();
    expect(ids(last())).toEqual(['row-1', 'row-2', 'row-3', 'row-4', 'row-5', 'row-6', 'row-7']);
    expect(search.hasMore).toBe(false);
    search.more();
    expect(server.calls.map((c) => c.page)).toEqual([1, 2, 3]);
  });

  it('drops the answer of a search that newer typing overtook, even when it arrives last', async () => {
    const server = fakeServer(30);
    const { search, last } = searchOver(server);
    server.holdAnswers();
    search.search('row-1');
    search.search('row-3');
    server.answer(1, 0);
    await vi.runAllTimersAsync();
    expect(last()).toMatchObject({ text: 'row-3', total: 2, loading: false });
    expect(ids(last())).toEqual(['row-3', 'row-30']);
  });

  it('starts again at page 1 when the text changes after paging', async () => {
    const server = fakeServer(30);
    const { search, last } = searchOver(server);
    search.search('');
    await vi.runAllTimersAsync();
    search.more();
    await vi.runAllTimersAsync();
    expect(last().items).toHaveLength(6);
    search.type('row-1');
    await vi.runAllTimersAsync();
    expect(server.calls.at(-1)).toEqual({ text: 'row-1', page: 1 });
    expect(ids(last())).toEqual(['row-1', 'row-10', 'row-11']);
  });

  it('ends paging on an empty page even when the count promised more (rows deleted meanwhile)', async () => {
    const answers: RemotePage<Row>[] = [
      { items: [{ id: 'a' }, { id: 'b' }], total: 5 },
      { items: [{ id: 'b' }], total: 5 },
      { items: [], total: 5 },
    ];
    let call = 0;
    const search = new RemoteSearch<Row>({ fetchPage: async () => answers[call++]!, keyOf: (r) => r.id, onChange: () => undefined });
    search.search('');
    await vi.runAllTimersAsync();
    search.more();
    await vi.runAllTimersAsync();
    // A row that shifted onto the next page is not shown twice.
    expect(search.current.items.map((r) => r.id)).toEqual(['a', 'b']);
    search.more();
    await vi.runAllTimersAsync();
    expect(search.hasMore).toBe(false);
  });

  it('says a failed search failed, and keeps working for the next one', async () => {
    let fail = true;
    const server = fakeServer(5);
    const search = new RemoteSearch<Row>({
      fetchPage: (text, page) => (fail ? Promise.reject(new Error('offline')) : server.fetchPage(text, page)),
      keyOf: (r) => r.id,
      onChange: () => undefined,
    });
    search.search('');
    await vi.runAllTimersAsync();
    expect(search.current).toMatchObject({ failed: true, loading: false, items: [] });
    fail = false;
    search.type('row');
    await vi.runAllTimersAsync();
    expect(search.current).toMatchObject({ failed: false, total: 5 });
  });

  it('fetches chosen items by id and leaves out the ones that are gone', async () => {
    const found = await fetchEach(['a', 'gone', 'b'], (id) => (id === 'gone' ? Promise.reject(new Error('404')) : Promise.resolve({ id })));
    expect(found.map((r) => r.id).sort()).toEqual(['a', 'b']);
  });
});
