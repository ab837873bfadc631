/** Route constants of spec section 2 that code outside the route table needs (client, guards). */
export const paths = {
  root: '/',
  login: '/login',
  forgotPassword: '/forgot-password',
  exception: '/exception',
  dashboard: '/dashboard',
  workbench: '/dashboard/workbench',
  guide: '/guide',
  offlineWord: '/offline-word',
  expiredLicense: '/expired-upload-license',
  operationManage: '/operation-manage',
} as const;
