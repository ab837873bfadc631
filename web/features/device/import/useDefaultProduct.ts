/** Puts the default product into an import wizard's product field once the products arrive, unless one is chosen. */
import { useEffect } from 'react';
import type { FormInstance } from '@arco-design/web-react/es/Form';
import type { ProductOption } from '../../../../server/contract/product.ts';
import type { DeviceTargetValues } from '../DeviceTargetFields.tsx';

export function useDefaultProduct<V extends DeviceTargetValues>(form: FormInstance<V>, products: ProductOption[]): void {
  const defaultProduct = products.find((p) => p.isDefault)?.id;
  useEffect(() => {
    if (defaultProduct && !form.getFieldValue('deviceProfileId')) form.setFieldValue('deviceProfileId', defaultProduct as V['deviceProfileId']);
  }, [defaultProduct, form]);
}
