/**
 * Product detail → topic: the MQTT topics a device of this product uses
 * and payload examples generated from its thing model (the published version, or the draft), so a
 * firmware developer can start from them.
 */
import { useEffect, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Empty from '@arco-design/web-react/es/Empty';
import Radio from '@arco-design/web-react/es/Radio';
import Spin from '@arco-design/web-react/es/Spin';
import Table from '@arco-design/web-react/es/Table';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import Tag from '@arco-design/web-react/es/Tag';
import { useTranslation } from 'react-i18next';
import { deviceTopics } from '../../../server/contract/device-api.ts';
import { mosquittoConnection, useDeviceAccess } from '../device/deviceAccessApi.ts';
import type { ProductTabProps } from '../product/productTab.ts';
import { CodeBlock } from '../../components/CodeBlock.tsx';
import { topicExamples, type TopicExample } from './topicExamples.ts';
import { useTsl, type TslVersion } from './TslModal.tsx';
import { modelStatus } from './thingModelApi.ts';
import './thing-model.css';

export function ProductTopicTab({ product }: ProductTabProps): JSX.Element {
  const { t } = useTranslation('thingModel');
  // The model's status decides which version to show first: asking for a published model that does
  // not exist would answer 404 (and log it in the browser) before falling back to the draft.
  const [hasPublished, setHasPublished] = useState<boolean | null>(null);
  const [chosen, setVersion] = useState<TslVersion | null>(null);
  const version: TslVersion = chosen ?? (hasPublished ? 'published' : 'draft');
  const model = useTsl(product.id, version, hasPublished !== null);
  const loading = model.loading || hasPublished === null;
  const access = useDeviceAccess();

  useEffect(() => {
    let live = true;
    modelStatus(product.id).then(
      (status) => live && setHasPublished(status.publishedVersion !== null),
      () => live && setHasPublished(false),
    );
    return () => {
      live = false;
    };
  }, [product.id]);

  const rows = model.tsl ? topicExamples(model.tsl, product.deviceType) : [];
  const firstPayload = rows.find((r) => r.purpose === 'telemetry')?.payload ?? { temperature: 25 };
  const columns: ColumnProps<TopicExample>[] = [
    {
      title: t('topic.columns.topic'),
      dataIndex: 'topic',
      width: 280,
      render: (topic: string) => <span className="ec-tm-topic__name">{topic}</span>,
    },
    {
      title: t('topic.columns.direction'),
      dataIndex: 'direction',
      width: 110,
      render: (direction: TopicExample['direction']) => (
        <Tag size="small" bordered={false} color={direction === 'publish' ? 'blue' : 'green'}>
          {t(`topic.direction.${direction}`)}
        </Tag>
      ),
    },
    {
      title: t('topic.columns.purpose'),
      key: 'purpose',
      width: 240,
      render: (_: unknown, row) => t(`topic.purpose.${row.purpose}`, { subject: row.subject ?? '' }),
    },
    {
      title: t('topic.columns.payload'),
      dataIndex: 'payload',
      render: (payload: unknown) => <CodeBlock compact text={JSON.stringify(payload, null, 2)} />,
    },
  ];

  return (
    <section className="ec-tm-topic" data-testid="product-topic-tab">
      <Alert
        type="info"
        title={t('topic.connectTitle')}
        content={
          <>
            {access ? (
              <>
                <p style={{ margin: '0 0 8px' }}>{t('topic.connect', { port: access.mqttPort })}</p>
                <CodeBlock
                  compact
                  testId="topic-mosquitto"
                  text={`mosquitto_pub ${mosquittoConnection(window.location.hostname, access)} \\\n  -t ${deviceTopics.telemetry} -m '${JSON.stringify(firstPayload)}'`}
                />
                {access.mqttsPort !== null ? (
                  <>
                    <p style={{ margin: '8px 0' }}>{t('topic.connectTls', { port: access.mqttsPort })}</p>
                    <CodeBlock
                      compact
                      testId="topic-mosquitto-tls"
                      text={`mosquitto_pub ${mosquittoConnection(window.location.hostname, access, true)} \\\n  -t ${deviceTopics.telemetry} -m '${JSON.stringify(firstPayload)}'`}
                    />
                  </>
                ) : null}
              </>
            ) : (
              <Spin />
            )}
          </>
        }
      />
      <Radio.Group type="button" value={version} onChange={(v: TslVersion) => setVersion(v)} data-testid="topic-version">
        <Radio value="published" disabled={!hasPublished}>
          {t('tsl.published')}
        </Radio>
        <Radio value="draft">{t('tsl.draft')}</Radio>
      </Radio.Group>
      <Spin loading={loading} block>
        {rows.length ? (
          <Table<TopicExample>
            rowKey={(row) => `${row.topic}\u0000${row.subject ?? ''}\u0000${row.purpose}`}
            columns={columns}
            data={rows}
            pagination={false}
            border={false}
            scroll={{ x: 960 }}
            data-testid="topic-table"
          />
        ) : (
          <Empty description={loading ? ' ' : t('topic.empty')} data-testid="topic-empty" />
        )}
      </Spin>
    </section>
  );
}
