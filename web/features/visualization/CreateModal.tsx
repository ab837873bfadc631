/**
 * Asks a new configuration's name and platform (and, for a copy, nothing else: the layout comes
 * from the template or the configuration copied), creates it and hands it back.
 */
import { useEffect, type JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Modal from '@arco-design/web-react/es/Modal';
import { useTranslation } from 'react-i18next';
import { VIS_NAME_MAX, visualizationPlatforms, type Layout, type Visualization, type VisualizationPlatform } from '../../../server/contract/visualization.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { createVisualization } from './visualizationApi.ts';

export interface CreateRequest {
  name: string;
  platform: VisualizationPlatform;
  layout: Layout;
  /** Save the copy as a template (save as template) instead of a configuration. */
  template: boolean;
}

export function CreateModal(props: { request: CreateRequest | null; onClose: () => void; onCreated: (v: Visualization) => void }): JSX.Element {
  const { t } = useTranslation('visualization');
  const [form] = Form.useForm<{ name: string; platform: VisualizationPlatform }>();
  const { request } = props;
  useEffect(() => {
    if (request) form.setFieldsValue({ name: request.name, platform: request.platform });
  }, [request, form]);
  const submit = async (): Promise<void> => {
    const values = await form.validate();
    const created = await createVisualization({ name: values.name, platform: values.platform, template: request!.template, layout: request!.layout });
    props.onCreated(created);
  };
  return (
    <Modal
      visible={request !== null}
      title={request?.template ? t('saveAsTemplate') : t('create')}
      onOk={submit}
      onCancel={props.onClose}
      unmountOnExit
      okButtonProps={{ 'data-testid': 'vis-create-ok' } as object}
    >
      <Form form={form} layout="vertical">
        <Form.Item field="name" label={t('fields.name')} rules={[{ required: true, maxLength: VIS_NAME_MAX, message: t('fields.nameRule') }]}>
          <Input maxLength={VIS_NAME_MAX} data-testid="vis-create-name" />
        </Form.Item>
        <Form.Item field="platform" label={t('fields.platform')} rules={[{ required: true }]}>
          <EnumSelect ns="visualization" group="platforms" values={visualizationPlatforms} variant="radio" testId="vis-create-platform" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
