/** Uploaded files (images for products, devices, avatars), stored by content hash. */
import { defineModule } from '../../module.ts';
import { registerOssRoutes } from './oss-routes.ts';
import m0045 from './migrations/0045-oss-file-owner.sql';
import { OSS_QUOTA_BYTES, OssService, storedNameOf } from './oss-service.ts';

declare module '../../module.ts' {
  interface Services {
    files: OssService;
  }
  interface Tuning {
    /** Bytes of uploads one user may hold (tests make it small). */
    ossQuotaBytes?: number;
  }
}

const MB = 1024 * 1024;

export const ossModule = defineModule({
  name: 'oss',
  needs: ['accounts'],
  migrations: [{ name: '0045-oss-file-owner', sql: m0045 }],
  apiTags: { oss: 'File uploads' },
  build: ({ core, tuning, services: { accounts } }) => {
    const avatarOf = (userId: string): string | null => {
      const avatar = accounts.findById(userId)?.avatar;
      return avatar ? storedNameOf(avatar) : null;
    };
    const { dataDir, minFreeDiskMb } = core.config;
    return { files: new OssService({ db: core.db, dataDir, minFreeBytes: minFreeDiskMb * MB, quotaBytes: tuning.ossQuotaBytes ?? OSS_QUOTA_BYTES, avatarOf }) };
  },
  routes: registerOssRoutes,
});
