/** Uploaded files (images for products, devices, avatars), stored by content hash. */
import { defineModule } from '../../module.ts';
import { registerOssRoutes } from './oss-routes.ts';
import { OssService } from './oss-service.ts';

declare module '../../module.ts' {
  interface Services {
    files: OssService;
  }
}

export const ossModule = defineModule({
  name: 'oss',
  needs: [],
  apiTags: { oss: 'File uploads' },
  build: ({ core }) => ({ files: new OssService(core.db, core.config.dataDir) }),
  routes: registerOssRoutes,
});
