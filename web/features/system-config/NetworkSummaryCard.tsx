/**
 * System configuration → network: the addresses the machine has now, with the way to the network
 * configuration page where LAN, WAN, WiFi and 4G are changed.
 */
import type { JSX } from 'react';
import Card from '@arco-design/web-react/es/Card';
import Table from '@arco-design/web-react/es/Table';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { consolePaths } from '../../../server/contract/console-paths.ts';
import type { SystemInfo } from '../../../server/contract/system.ts';

export function NetworkSummaryCard({ info }: { info: SystemInfo | null }): JSX.Element {
  const { t } = useTranslation('system');
  return (
    <Card
      title={<h2 className="ec-system-config__title">{t('network.title')}</h2>}
      extra={
        <Link href={consolePaths.networkConfiguration} data-testid="network-summary-open">
          {t('network.open')}
        </Link>
      }
      bordered={false}
    >
      <p className="ec-system-config__intro">{t('network.intro')}</p>
      <Table
        data-testid="network-summary"
        rowKey={(row) => `${row.interface}-${row.address}`}
        loading={!info}
        pagination={false}
        noDataElement={t('network.none')}
        data={info?.addresses ?? []}
        columns={[
          { title: t('network.interface'), dataIndex: 'interface' },
          { title: t('network.address'), dataIndex: 'address' },
          { title: t('network.netmask'), dataIndex: 'netmask' },
          { title: t('network.mac'), dataIndex: 'mac' },
        ]}
      />
    </Card>
  );
}
