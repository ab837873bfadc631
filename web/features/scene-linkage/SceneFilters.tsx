/** The filter fields of the scene list: name, enabled or not. */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Select from '@arco-design/web-react/es/Select';
import { useTranslation } from 'react-i18next';

export function SceneFilters(): JSX.Element {
  const { t } = useTranslation('scene');
  return (
    <>
      <Form.Item field="name" label={t('name')}>
        <Input allowClear placeholder={t('namePlaceholder')} data-testid="scene-filter-name" style={{ width: 200 }} />
      </Form.Item>
      <Form.Item field="enabled" label={t('enabledFilter')}>
        <Select allowClear placeholder={t('enabledFilter')} style={{ width: 140 }} data-testid="scene-filter-enabled" getPopupContainer={() => document.body}>
          <Select.Option value={true as unknown as string}>{t('enabledValue.true')}</Select.Option>
          <Select.Option value={false as unknown as string}>{t('enabledValue.false')}</Select.Option>
        </Select>
      </Form.Item>
    </>
  );
}
