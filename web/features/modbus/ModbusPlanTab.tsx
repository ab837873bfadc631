/**
 * Product detail → Modbus points (TCP MODBUS-RTU products): the requests one poll cycle sends each
 * slave, with the points each feeds, of the draft model (what the thing-model tab edits) or the
 * published one (what polls now); the write-only points that are never polled; the point table
 * export and import (PointTableImport.tsx).
 */
import { useCallback, useEffect, useState, type JSX } from 'react';
import Empty from '@arco-design/web-react/es/Empty';
import Radio from '@arco-design/web-react/es/Radio';
import Spin from '@arco-design/web-react/es/Spin';
import Table from '@arco-design/web-react/es/Table';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import Tag from '@arco-design/web-react/es/Tag';
import { useTranslation } from 'react-i18next';
import type { ModbusPlan } from '../../../server/contract/modbus.ts';
import type { ProductTabProps } from '../product/productTab.ts';
import { fetchPlan } from './modbusApi.ts';
import { planRows, type PlanRow } from './modbusFormat.ts';
import { PointTableImport } from './PointTableImport.tsx';
import './modbus.css';

type Source = 'draft' | 'published';

export function ModbusPlanTab({ product }: ProductTabProps): JSX.Element {
  const { t } = useTranslation('modbus');
  const [source, setSource] = useState<Source>('draft');
  const [plan, setPlan] = useState<ModbusPlan | null>(null);
  const [loading, setLoading] = useState(true);

  const load = useCallback(async (): Promise<void> => {
    setLoading(true);
    try {
      setPlan(await fetchPlan(product.id, source));
    } catch {
      // the client showed why
      setPlan(null);
    } finally {
      setLoading(false);
    }
  }, [product.id, source]);

  useEffect(() => {
    void load();
  }, [load]);

  const columns: ColumnProps<PlanRow>[] = [
    {
      title: t('plan.function'),
      dataIndex: 'functionCode',
      width: 190,
      render: (code: string, row) => (
        <span className="ec-modbus-point">
          <code>{code}</code>
          <span>{t(`plan.object.${row.object}`)}</span>
        </span>
      ),
    },
    { title: t('plan.range'), key: 'range', width: 170, render: (_: unknown, row) => <code>{`${row.start}–${row.end}`}</code> },
    { title: t('plan.count'), dataIndex: 'count', width: 90 },
    {
      title: t('plan.identifiers'),
      dataIndex: 'identifiers',
      render: (ids: string[]) => (
        <span className="ec-modbus-ids">
          {ids.map((id) => (
            <Tag key={id} size="small">
              {id}
            </Tag>
          ))}
        </span>
      ),
    },
  ];

  return (
    <section className="ec-modbus" data-testid="modbus-plan-tab">
      <section className="ec-modbus-card" aria-labelledby="modbus-plan-title" data-testid="modbus-plan">
        <header className="ec-modbus-card__head">
          <h3 id="modbus-plan-title">{t('plan.title')}</h3>
          <Radio.Group type="button" size="small" value={source} onChange={(v: Source) => setSource(v)} aria-label={t('plan.sourceLabel')} data-testid="modbus-plan-source">
            {(['draft', 'published'] as const).map((value) => (
              <Radio key={value} value={value} data-testid={`modbus-plan-source-${value}`}>
                {t(`plan.source.${value}`)}
              </Radio>
            ))}
          </Radio.Group>
        </header>
        <p className="ec-modbus-muted">{t('plan.hint')}</p>
        {loading && !plan ? (
          <Spin className="ec-modbus-spin" />
        ) : plan ? (
          <>
            <p data-testid="modbus-plan-summary">{t('plan.summary', { ms: plan.pollIntervalMs, gap: plan.modbusGapMax, count: plan.requests.length })}</p>
            <Table<PlanRow>
              rowKey="key"
              size="small"
              border={false}
              loading={loading}
              columns={columns}
              data={planRows(plan.requests)}
              pagination={false}
              scroll={{ x: 640 }}
              noDataElement={<Empty description={t('plan.empty')} />}
              data-testid="modbus-plan-table"
            />
            {plan.writeOnly.length ? (
              <p className="ec-modbus-muted" data-testid="modbus-plan-write-only">
                {t('plan.writeOnly', { list: plan.writeOnly.join(', ') })}
              </p>
            ) : null}
          </>
        ) : (
          <Empty description={t('plan.loadFailed')} />
        )}
      </section>
      <PointTableImport product={product} onImported={() => void load()} />
    </section>
  );
}
