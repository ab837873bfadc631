/** Console paths of the device screens (the route table in web/routes.tsx holds their patterns). */
export const DEVICE_LIST_PATH = '/device-manage/device';

/** A device's detail page, optionally on one of its tabs (deviceTabs.tsx keys). */
export function devicePath(id: string, tab?: string): string {
  return `${DEVICE_LIST_PATH}/${encodeURIComponent(id)}${tab ? `/${encodeURIComponent(tab)}` : ''}`;
}

export function productPath(id: string): string {
  return `/device-manage/product/${encodeURIComponent(id)}`;
}
