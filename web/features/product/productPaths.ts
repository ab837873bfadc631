/** Console paths of the product screens (the route table in web/routes.tsx holds their patterns). */
export const PRODUCT_LIST_PATH = '/device-manage/product';

/** A product's detail page; `edit` opens its edit drawer on arrival (the route's `isShowCreate`). */
export function productDetailPath(id: string, edit = false): string {
  return `${PRODUCT_LIST_PATH}/${encodeURIComponent(id)}${edit ? '/1' : ''}`;
}
