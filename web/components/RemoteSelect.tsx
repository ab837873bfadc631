/**
 * A select over a list that can be long (devices, products): it asks the server as the user types
 * (debounced), shows one page and appends the next when the list is scrolled to its end (arrow keys
 * scroll it too) or its "more" row is clicked, and shows the label of a chosen value that is not
 * among the loaded rows by fetching it by id. Works as a form control (`value`/`onChange`, passed
 * on by Form.Item); `multiple` picks several. The domain lives in the caller (DeviceSelect).
 *
 * @example
 * <RemoteSelect<Device, string>
 *   fetchPage={(name, page) => listDevices({ name, page, pageSize: REMOTE_PAGE_SIZE })}
 *   fetchByIds={(ids) => Promise.all(ids.map(getDevice))}
 *   idOf={(d) => d.id} labelOf={(d) => d.name} detailOf={(d) => d.alias}
 *   placeholder={t('field.devicePlaceholder')} testId="alarm-filter-device" />
 */
import { useEffect, useMemo, useRef, useState, type CSSProperties, type JSX, type ReactNode } from 'react';
import Select from '@arco-design/web-react/es/Select';
import Spin from '@arco-design/web-react/es/Spin';
import { useTranslation } from 'react-i18next';
import { emptySearchState, RemoteSearch, type RemotePage, type RemoteSearchState } from './remote-search.ts';
import './RemoteSelect.css';

/** Scrolled this close to the end of the list (px), the next page is fetched. */
const MORE_AT_PX = 48;

export interface RemoteSelectProps<T, V extends string | string[]> {
  /** One page of items matching `text` (pages from 1). */
  fetchPage: (text: string, page: number) => Promise<RemotePage<T>>;
  /** The items of chosen values that are not loaded (a form opening with a value); a failed one shows its id. */
  fetchByIds?: (ids: string[]) => Promise<T[]>;
  idOf: (item: T) => string;
  /** The item's name: the option's main text and what the closed select shows. */
  labelOf: (item: T) => string;
  /** A second, dimmer text of the option (a device's alias). */
  detailOf?: (item: T) => string | null | undefined;
  /** When this changes the list is searched again: the caller's filter (a product) changed. */
  filterKey?: string;
  value?: V;
  onChange?: (value: V) => void;
  /** Also the control's accessible name. */
  placeholder: string;
  /** What an empty answer says (default: nothing matches). */
  emptyText?: string;
  multiple?: boolean;
  allowClear?: boolean;
  disabled?: boolean;
  /** `data-testid` of the select; options get `<testId>-option-<id>`. */
  testId: string;
  style?: CSSProperties;
}

/** What a domain select built on this one (DeviceSelect) takes from its caller and passes on. */
export type RemoteSelectControlProps<V extends string | string[]> = Pick<
  RemoteSelectProps<unknown, V>,
  'value' | 'onChange' | 'placeholder' | 'emptyText' | 'multiple' | 'allowClear' | 'disabled' | 'testId' | 'style'
>;

function idsOf(value: string | string[] | undefined | null): string[] {
  if (Array.isArray(value)) return value;
  return value ? [value] : [];
}

/** The search state, kept by a RemoteSearch that lives as long as the select. */
function useRemoteSearch<T>(fetchPage: (text: string, page: number) => Promise<RemotePage<T>>, idOf: (item: T) => string) {
  const [state, setState] = useState<RemoteSearchState<T>>(emptySearchState);
  const fetchRef = useRef(fetchPage);
  fetchRef.current = fetchPage;
  const [search] = useState(
    () => new RemoteSearch<T>({ fetchPage: (text, page) => fetchRef.current(text, page), keyOf: idOf, onChange: setState }),
  );
  useEffect(() => () => search.dispose(), [search]);
  return { state, search };
}

export function RemoteSelect<T, V extends string | string[]>(props: RemoteSelectProps<T, V>): JSX.Element {
  const { t } = useTranslation('table');
  const { idOf, labelOf, detailOf, fetchByIds } = props;
  const { state, search } = useRemoteSearch(props.fetchPage, idOf);
  /** Chosen items fetched by id, kept while they stay chosen. */
  const [chosen, setChosen] = useState<Map<string, T>>(() => new Map());
  /** The list answers the current filter and an empty text: opening the popup need not ask again. */
  const fresh = useRef<string | null>(null);
  const filterKey = props.filterKey ?? '';

  useEffect(() => {
    // A new filter makes the loaded rows wrong; the next opening asks again.
    fresh.current = null;
  }, [filterKey]);

  const selectedIds = idsOf(props.value);
  const missing = selectedIds.filter((id) => !chosen.has(id) && !state.items.some((item) => idOf(item) === id));
  const missingKey = missing.join(',');
  useEffect(() => {
    if (!missingKey || !fetchByIds) return undefined;
    let live = true;
    fetchByIds(missingKey.split(',')).then(
      (items) => live && setChosen((prev) => new Map([...prev, ...items.map((item) => [idOf(item), item] as const)])),
      () => undefined,
    );
    return () => {
      live = false;
    };
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- fetched again only when the missing ids change.
  }, [missingKey]);

  // Loaded rows first, then chosen ones the page does not hold, so the select can show their labels.
  const options = useMemo(() => {
    const loaded = new Set(state.items.map(idOf));
    const extra = selectedIds.flatMap((id) => {
      const item = chosen.get(id);
      return item && !loaded.has(id) ? [item] : [];
    });
    return [...state.items, ...extra];
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- selectedIds is derived from props.value.
  }, [state.items, chosen, props.value, idOf]);

  const open = (visible: boolean): void => {
    if (!visible || fresh.current === filterKey) return;
    fresh.current = filterKey;
    search.search('');
  };

  const footer = ((): ReactNode => {
    if (state.loading && state.items.length) return <Spin size={12} tip={t('remoteLoading')} />;
    if (search.hasMore) {
      return (
        <button type="button" className="ec-remote-select-more" onClick={() => search.more()} data-testid={`${props.testId}-more`}>
          {t('remoteMore', { shown: state.items.length, total: state.total })}
        </button>
      );
    }
    return null;
  })();

  return (
    <Select
      value={props.value}
      onChange={(v: V) => props.onChange?.(v)}
      mode={props.multiple ? 'multiple' : undefined}
      allowClear={props.allowClear}
      disabled={props.disabled}
      showSearch
      filterOption={false}
      onSearch={(text, reason) => {
        if (reason === 'manual') {
          fresh.current = text ? null : filterKey;
          search.type(text);
        } else if (state.text) {
          // The typed text was cleared (an option chosen, the popup closed): the list no longer answers it.
          fresh.current = null;
        }
      }}
      onVisibleChange={open}
      onPopupScroll={(el: HTMLElement) => {
        if (el.scrollTop + el.clientHeight >= el.scrollHeight - MORE_AT_PX) search.more();
      }}
      notFoundContent={
        <div className="ec-remote-select-status" data-testid={`${props.testId}-status`}>
          {state.loading ? <Spin size={12} tip={t('remoteLoading')} /> : state.failed ? t('remoteFailed') : (props.emptyText ?? t('remoteEmpty'))}
        </div>
      }
      dropdownRender={(menu) => (
        <div data-testid={`${props.testId}-popup`}>
          {menu}
          {footer ? (
            // Keeps the focus in the search input, so clicking "more" neither closes nor clears it.
            <div className="ec-remote-select-footer" onMouseDown={(e) => e.preventDefault()}>
              {footer}
            </div>
          ) : null}
        </div>
      )}
      renderFormat={(_option, value) => {
        const item = options.find((o) => idOf(o) === value);
        return item ? labelOf(item) : String(value);
      }}
      placeholder={props.placeholder}
      aria-label={props.placeholder}
      getPopupContainer={() => document.body}
      // At least as wide as the select, wider when a name and alias need it.
      triggerProps={{ autoAlignPopupWidth: false, autoAlignPopupMinWidth: true }}
      style={props.style ?? { width: 220 }}
      data-testid={props.testId}
    >
      {options.map((item) => {
        const id = idOf(item);
        const detail = detailOf?.(item);
        return (
          <Select.Option key={id} value={id} data-testid={`${props.testId}-option-${id}`}>
            <span className="ec-remote-select-label">{labelOf(item)}</span>
            {detail ? <span className="ec-remote-select-detail">{detail}</span> : null}
          </Select.Option>
        );
      })}
    </Select>
  );
}
