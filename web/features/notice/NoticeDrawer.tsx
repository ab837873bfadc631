/**
 * Create or edit a draft notice: type, title (≤ 100), rich text content, receivers (all users, an
 * organization, a department with the organizations below it, or users by id). Rules are the
 * contract's; the server sanitizes the content.
 */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Message from '@arco-design/web-react/es/Message';
import Select from '@arco-design/web-react/es/Select';
import { useTranslation } from 'react-i18next';
import {
  NOTICE_TITLE_MAX,
  noticeReceiverTypes,
  noticeTypes,
  type Notice,
  type NoticeReceiverType,
  type NoticeType,
} from '../../../server/contract/notice.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { FormDrawer } from '../../components/FormDrawer.tsx';
import { RichTextEditor } from '../../components/RichTextEditor.tsx';
import { OrganizationTreeSelect } from '../organization/OrganizationTreeSelect.tsx';
import { createNotice, updateNotice } from './noticeApi.ts';

interface NoticeValues {
  type: NoticeType;
  title: string;
  content: string;
  receiverType: NoticeReceiverType;
  organizationId: string | null;
  userIds: string[];
}

const fields = ['type', 'title', 'content', 'receiverType', 'organizationId', 'userIds'] as const;

function valuesOf(notice: Notice | null): NoticeValues {
  if (!notice) return { type: 'NOTICE', title: '', content: '', receiverType: 'ALL', organizationId: null, userIds: [] };
  const byOrganization = notice.receiverType === 'ORGANIZATION' || notice.receiverType === 'DEPARTMENT';
  return {
    type: notice.type,
    title: notice.title,
    content: notice.content,
    receiverType: notice.receiverType,
    organizationId: byOrganization ? (notice.receiverIds[0] ?? null) : null,
    userIds: notice.receiverType === 'INDIVIDUAL' ? notice.receiverIds : [],
  };
}

function receiverIdsOf(values: NoticeValues): string[] {
  if (values.receiverType === 'INDIVIDUAL') return values.userIds ?? [];
  if (values.receiverType === 'ALL' || !values.organizationId) return [];
  return [values.organizationId];
}

export interface NoticeDrawerProps {
  /** undefined: closed; null: create; a notice: edit it. */
  editing: Notice | null | undefined;
  onClose: () => void;
  onSaved: () => void;
}

export function NoticeDrawer({ editing, onClose, onSaved }: NoticeDrawerProps): JSX.Element {
  const { t } = useTranslation(['notice', 'errors']);

  const submit = async (values: NoticeValues): Promise<void> => {
    const body = { type: values.type, title: values.title.trim(), content: values.content ?? '', receiverType: values.receiverType, receiverIds: receiverIdsOf(values) };
    if (editing) await updateNotice({ id: editing.id, ...body });
    else await createNotice(body);
    Message.success(editing ? t('saved') : t('created'));
    onSaved();
  };

  const editorLabels = {
    toolbar: t('editor.toolbar'),
    bold: t('editor.bold'),
    italic: t('editor.italic'),
    underline: t('editor.underline'),
    bulletList: t('editor.bulletList'),
    numberedList: t('editor.numberedList'),
    link: t('editor.link'),
    linkPrompt: t('editor.linkPrompt'),
    removeFormat: t('editor.removeFormat'),
  };

  return (
    <FormDrawer<NoticeValues>
      testId="notice-drawer"
      visible={editing !== undefined}
      mode={editing ? 'edit' : 'create'}
      title={editing ? t('editTitle') : t('createTitle')}
      width="50%"
      initialValues={valuesOf(editing ?? null)}
      fields={fields}
      onSubmit={submit}
      onClose={onClose}
    >
      {(form) => {
        const receiverType = form.getFieldValue('receiverType') as NoticeReceiverType | undefined;
        return (
          <>
            <Form.Item field="type" label={t('fields.type')}>
              <EnumSelect ns="notice" group="type" values={noticeTypes} variant="radio" testId="notice-form-type" />
            </Form.Item>
            <Form.Item field="title" label={t('fields.title')} required rules={[{ required: true, maxLength: NOTICE_TITLE_MAX, message: t('errors:notice.title') }]}>
              <Input placeholder={t('titlePlaceholder')} maxLength={{ length: NOTICE_TITLE_MAX, errorOnly: true }} showWordLimit data-testid="notice-form-title" />
            </Form.Item>
            <Form.Item field="content" label={t('fields.content')}>
              <RichTextEditor labels={editorLabels} ariaLabel={t('fields.content')} placeholder={t('contentPlaceholder')} testId="notice-form-content" />
            </Form.Item>
            <Form.Item field="receiverType" label={t('fields.receiverType')}>
              <EnumSelect ns="notice" group="receiverType" values={noticeReceiverTypes} testId="notice-form-receiver-type" />
            </Form.Item>
            {(receiverType === 'ORGANIZATION' || receiverType === 'DEPARTMENT') && (
              <Form.Item field="organizationId" label={t('fields.organization')} required rules={[{ required: true, message: t('errors:notice.receiversRequired') }]}>
                <OrganizationTreeSelect testId="notice-form-organization" />
              </Form.Item>
            )}
            {receiverType === 'INDIVIDUAL' && (
              <Form.Item field="userIds" label={t('fields.users')} required rules={[{ required: true, type: 'array', minLength: 1, message: t('errors:notice.receiversRequired') }]}>
                <Select mode="multiple" allowCreate placeholder={t('usersPlaceholder')} aria-label={t('fields.users')} data-testid="notice-form-users" />
              </Form.Item>
            )}
          </>
        );
      }}
    </FormDrawer>
  );
}
