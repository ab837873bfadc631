import type { JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import { useTranslation } from 'react-i18next';
import type { ThingModelStatus } from '../../../server/contract/thing-model.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { formatDateTime } from '../../lib/date-format.ts';

/** Draft against published, with the publish button while they differ. */
export function PublishState({ status, onPublish }: { status: ThingModelStatus | null; onPublish: () => Promise<void> }): JSX.Element | null {
  const { t } = useTranslation('thingModel');
  if (!status) return null;
  const published = status.publishedVersion !== null;
  if (status.hasUnpublishedChanges) {
    return (
      <Alert
        className="ec-tm-status"
        type="warning"
        title={t('publish.unpublishedTitle')}
        content={published ? t('publish.unpublishedContent', { version: status.publishedVersion }) : t('publish.neverPublished')}
        action={
          <ConfirmButton
            danger={false}
            type="primary"
            size="default"
            okText={t('publish.button')}
            title={t('publish.confirm', { count: status.draftItemCount })}
            onConfirm={onPublish}
            testId="tm-publish"
          >
            {t('publish.button')}
          </ConfirmButton>
        }
        data-testid="tm-state-draft"
      />
    );
  }
  if (published) {
    return (
      <Alert
        className="ec-tm-status"
        type="success"
        content={t('publish.upToDate', {
          version: status.publishedVersion,
          time: formatDateTime(status.publishedTime),
          count: status.publishedItemCount,
        })}
        data-testid="tm-state-published"
      />
    );
  }
  return <Alert className="ec-tm-status" type="info" content={t('publish.empty')} data-testid="tm-state-empty" />;
}
