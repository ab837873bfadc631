/**
 * What can be done to a product from the list: open, edit, make default, delete. Delete asks
 * first; the server refuses it while devices use the product and its message is shown.
 */
import type { JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Message from '@arco-design/web-react/es/Message';
import { useTranslation } from 'react-i18next';
import type { Product } from '../../../server/contract/product.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { navigateGuarded } from '../../lib/navigation.ts';
import { deleteProducts, makeDefaultProduct } from './productApi.ts';
import { productDetailPath } from '../../../server/contract/console-paths.ts';

export interface ProductActionsProps {
  product: Product;
  onEdit: () => void;
  /** Something changed (default moved, product deleted): reload. */
  onChanged: () => void;
  /** Cards: the detail link is the card's title already. */
  compact?: boolean;
}

export function ProductActions({ product, onEdit, onChanged, compact }: ProductActionsProps): JSX.Element {
  const { t } = useTranslation(['product', 'table']);
  const id = product.id;
  return (
    <span className="ec-product__actions">
      {compact ? null : (
        <Button type="text" size="small" onClick={() => void navigateGuarded(productDetailPath(id))} data-testid={`product-detail-${id}`}>
          {t('detail')}
        </Button>
      )}
      <Button type="text" size="small" onClick={onEdit} data-testid={`product-edit-${id}`}>
        {t('edit')}
      </Button>
      {product.isDefault ? null : (
        <ConfirmButton
          danger={false}
          okText={t('setDefault')}
          title={t('setDefaultConfirm', { name: product.name })}
          onConfirm={async () => {
            await makeDefaultProduct(id);
            Message.success(t('defaultSet'));
            onChanged();
          }}
          testId={`product-set-default-${id}`}
        >
          {t('setDefault')}
        </ConfirmButton>
      )}
      <ConfirmButton
        title={t('deleteConfirm', { name: product.name })}
        onConfirm={async () => {
          await deleteProducts([id]);
          Message.success(t('deleted'));
          onChanged();
        }}
        testId={`product-delete-${id}`}
      >
        {t('table:delete')}
      </ConfirmButton>
    </span>
  );
}
