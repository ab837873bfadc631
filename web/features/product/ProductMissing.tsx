/** What the product detail shows instead of a product: not found, or the load failed (then with a retry). */
import type { JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import IconExclamationCircle from '@arco-design/web-react/icon/react-icon/IconExclamationCircle';
import { useTranslation } from 'react-i18next';
import { consolePaths } from '../../../server/contract/console-paths.ts';
import { StatusPanel } from '../../components/StatusPanel.tsx';
import { errorMessage } from '../../lib/error-text.ts';
import { navigateGuarded } from '../../lib/navigation.ts';

export function ProductMissing({ missing, onReload }: { missing: 'notFound' | 'failed'; onReload: () => void }): JSX.Element {
  const { t } = useTranslation(['product', 'table']);
  return (
    <StatusPanel
      testId="product-missing"
      icon={<IconExclamationCircle />}
      title={missing === 'notFound' ? t('notFound') : errorMessage(null)}
      actions={
        <>
          {missing === 'failed' ? <Button onClick={onReload}>{t('table:refresh')}</Button> : null}
          <Button type="primary" onClick={() => void navigateGuarded(consolePaths.product)} data-testid="product-missing-back">
            {t('back')}
          </Button>
        </>
      }
    />
  );
}
