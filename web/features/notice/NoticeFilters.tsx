/** The filter fields of the notice list: type, status. */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import { useTranslation } from 'react-i18next';
import { noticeStatuses, noticeTypes } from '../../../server/contract/notice.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';

export function NoticeFilters(): JSX.Element {
  const { t } = useTranslation(['notice', 'table']);
  return (
    <>
      <Form.Item field="type" label={t('fields.type')}>
        <EnumSelect ns="notice" group="type" values={noticeTypes} allowClear placeholder={t('table:all')} testId="notice-filter-type" style={{ width: 140 }} />
      </Form.Item>
      <Form.Item field="status" label={t('fields.status')}>
        <EnumSelect ns="notice" group="status" values={noticeStatuses} allowClear placeholder={t('table:all')} testId="notice-filter-status" style={{ width: 140 }} />
      </Form.Item>
    </>
  );
}
