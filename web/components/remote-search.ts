/**
 * The state behind a select that searches the server (RemoteSelect): typing is debounced, each
 * search starts again at page 1, `more()` appends the next page, and an answer to a search that
 * was overtaken (the user kept typing, the filter changed) is dropped, so the list always belongs
 * to the text on show. Free of React and of the DOM, so its timing can be tested with fake timers.
 */

export interface RemotePage<T> {
  items: readonly T[];
  total: number;
}

export interface RemoteSearchState<T> {
  /** The text the list answers (what was last searched, not what is being typed). */
  text: string;
  items: T[];
  /** The server's count for `text`; more pages exist while items.length < total. */
  total: number;
  loading: boolean;
  failed: boolean;
}

export interface RemoteSearchOptions<T> {
  /** One page of matches for `text`, pages numbered from 1. */
  fetchPage: (text: string, page: number) => Promise<RemotePage<T>>;
  /** An item's identity: a row that shifts onto the next page while paging is not shown twice. */
  keyOf: (item: T) => string;
  onChange: (state: RemoteSearchState<T>) => void;
  /** Quiet time after the last keystroke before the server is asked. */
  debounceMs?: number;
}

export const REMOTE_SEARCH_DEBOUNCE_MS = 250;
/** Rows a remote select asks for per page: a screenful and a half of options. */
export const REMOTE_PAGE_SIZE = 20;

/** The items of these ids, one call each; one that fails (deleted meanwhile) is left out. */
export async function fetchEach<T>(ids: readonly string[], get: (id: string) => Promise<T>): Promise<T[]> {
  const found: T[] = [];
  await Promise.all(ids.map((id) => get(id).then((item) => found.push(item), () => undefined)));
  return found;
}

export function emptySearchState<T>(): RemoteSearchState<T> {
  return { text: '', items: [], total: 0, loading: false, failed: false };
}

export class RemoteSearch<T> {
  private state: RemoteSearchState<T> = emptySearchState();
  private page = 0;
  /** Bumped by every new search: answers carrying an older number are stale. */
  private generation = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pendingText = '';

  constructor(private readonly options: RemoteSearchOptions<T>) {}

  get current(): RemoteSearchState<T> {
    return this.state;
  }

  get hasMore(): boolean {
    return this.page > 0 && this.state.items.length < this.state.total;
  }

  /** A keystroke: searches `text` once typing pauses. */
  type(text: string): void {
    this.pendingText = text;
    clearTimeout(this.timer);
    // Shown at once, so the list says "loading" instead of answering the previous text.
    this.set({ loading: true, failed: false });
    this.timer = setTimeout(() => this.search(this.pendingText), this.options.debounceMs ?? REMOTE_SEARCH_DEBOUNCE_MS);
  }

  /** Searches `text` now (the popup opens, a filter outside the select changed). */
  search(text = this.pendingText): void {
    clearTimeout(this.timer);
    this.pendingText = text;
    this.generation += 1;
    this.page = 0;
    this.set({ text, items: [], total: 0, loading: true, failed: false });
    void this.fetch(1, this.generation);
  }

  /** The next page of the current search, unless one is on its way or none is left. */
  more(): void {
    if (this.state.loading || !this.hasMore) return;
    this.set({ loading: true, failed: false });
    void this.fetch(this.page + 1, this.generation);
  }

  /** Stops the timer; answers still on their way are dropped. */
  dispose(): void {
    clearTimeout(this.timer);
    this.generation += 1;
  }

  private async fetch(page: number, generation: number): Promise<void> {
    const text = this.state.text;
    let answer: RemotePage<T>;
    try {
      answer = await this.options.fetchPage(text, page);
    } catch {
      if (generation === this.generation) this.set({ loading: false, failed: true });
      return;
    }
    if (generation !== this.generation) return;
    this.page = page;
    const seen = new Set(page === 1 ? [] : this.state.items.map(this.options.keyOf));
    const fresh = answer.items.filter((item) => !seen.has(this.options.keyOf(item)));
    const items = page === 1 ? fresh : [...this.state.items, ...fresh];
    // A short page means the end, whatever the count said (rows deleted while paging).
    const total = answer.items.length === 0 && page > 1 ? items.length : Math.max(answer.total, items.length);
    this.set({ items, total, loading: false, failed: false });
  }

  private set(patch: Partial<RemoteSearchState<T>>): void {
    this.state = { ...this.state, ...patch };
    this.options.onChange(this.state);
  }
}
