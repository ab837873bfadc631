/** The history drawer's query bar: properties, record limit, the query button (disabled with its reason), chart or table. */
import type { JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Radio from '@arco-design/web-react/es/Radio';
import Select from '@arco-design/web-react/es/Select';
import Space from '@arco-design/web-react/es/Space';
import Tooltip from '@arco-design/web-react/es/Tooltip';
import IconSearch from '@arco-design/web-react/icon/react-icon/IconSearch';
import { useTranslation } from 'react-i18next';
import { HISTORY_LIMIT_MAX } from '../../../server/contract/telemetry.ts';
import type { ThingModelTsl } from '../../../server/contract/thing-model.ts';
import type { HistoryBlocker } from './historyQuery.ts';

export type HistoryView = 'chart' | 'table';

export interface HistoryToolbarProps {
  properties: ThingModelTsl['properties'];
  keys: string[];
  onKeys: (keys: string[]) => void;
  limit: number | undefined;
  onLimit: (limit: number | undefined) => void;
  /** An aggregated query has no record limit. */
  aggregated: boolean;
  blocker: HistoryBlocker;
  loading: boolean;
  onQuery: () => void;
  view: HistoryView;
  onView: (view: HistoryView) => void;
}

export function HistoryToolbar(props: HistoryToolbarProps): JSX.Element {
  const { properties, keys, onKeys, limit, onLimit, aggregated, blocker, loading, onQuery, view, onView } = props;
  const { t } = useTranslation('telemetry');
  return (
    <Space wrap size={12}>
      <Select
        mode="multiple"
        value={keys}
        onChange={(next: string[]) => onKeys(next)}
        placeholder={t('history.keysPlaceholder')}
        aria-label={t('history.keysPlaceholder')}
        style={{ minWidth: 320 }}
        allowClear
        getPopupContainer={() => document.body}
        data-testid="history-keys"
      >
        {properties.map((p) => (
          <Select.Option key={p.identifier} value={p.identifier} data-testid={`history-key-${p.identifier}`}>
            {`${p.functionName} (${p.identifier})`}
          </Select.Option>
        ))}
      </Select>
      <InputNumber
        value={limit}
        onChange={(v) => onLimit(v ?? undefined)}
        min={1}
        max={HISTORY_LIMIT_MAX}
        precision={0}
        disabled={aggregated}
        prefix={t('history.limit')}
        aria-label={t('history.limit')}
        style={{ width: 200 }}
        data-testid="history-limit"
      />
      <Tooltip content={blocker ? t(blocker, { max: HISTORY_LIMIT_MAX }) : undefined} disabled={!blocker}>
        <Button type="primary" icon={<IconSearch />} loading={loading} disabled={blocker !== null} onClick={onQuery} data-testid="history-query">
          {t('history.query')}
        </Button>
      </Tooltip>
      <Radio.Group type="button" value={view} onChange={(v: HistoryView) => onView(v)} data-testid="history-view">
        <Radio value="chart" data-testid="history-view-chart">
          {t('history.chart')}
        </Radio>
        <Radio value="table" data-testid="history-view-table">
          {t('history.table')}
        </Radio>
      </Radio.Group>
    </Space>
  );
}
