/**
 * The question asked once when leaving a thing model whose draft has unpublished changes:
 * publish and leave, leave without publishing (the draft is saved and stays), or stay.
 */
import Button from '@arco-design/web-react/es/Button';
import Modal from '@arco-design/web-react/es/Modal';
import { i18n } from '../../i18n/i18n.ts';

/** Resolves true when the user may leave: published, or chose to leave the draft as it is. */
export function askPublishOnLeave(publish: () => Promise<void>): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const dialog = Modal.confirm({
      title: i18n.t('thingModel:publish.leaveTitle'),
      content: i18n.t('thingModel:publish.leaveContent'),
      okText: i18n.t('thingModel:publish.leavePublish'),
      cancelText: i18n.t('thingModel:publish.stay'),
      className: 'ec-tm-leave',
      okButtonProps: { 'data-testid': 'tm-leave-publish' } as Record<string, unknown>,
      cancelButtonProps: { 'data-testid': 'tm-leave-stay' } as Record<string, unknown>,
      footer: (stay, publishButton) => (
        <>
          <Button
            data-testid="tm-leave-without"
            onClick={() => {
              dialog.close();
              resolve(true);
            }}
          >
            {i18n.t('thingModel:publish.leaveWithout')}
          </Button>
          {stay}
          {publishButton}
        </>
      ),
      onOk: async () => {
        try {
          await publish();
          resolve(true);
        } catch {
          // The HTTP client showed why (e.g. an empty model): the user stays on the model.
          resolve(false);
        }
      },
      onCancel: () => resolve(false),
    });
  });
}
