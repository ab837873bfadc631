/** Notices to all users, organizations, departments or individuals, with a read state per receiver. */
import { defineModule } from '../../module.ts';
import m0028 from './migrations/0028-notice.sql';
import { NoticeReceivers } from './notice-receivers.ts';
import { NoticeRepository } from './notice-repository.ts';
import { registerNoticeRoutes } from './notice-routes.ts';
import { NoticeService } from './notice-service.ts';

declare module '../../module.ts' {
  interface Services {
    notices: NoticeService;
  }
}

declare module '../../lib/event-bus.ts' {
  interface Events {
    /** A notice was published to these users (for the header bell). */
    'notice.published': { noticeId: string; userIds: string[] };
  }
}

export const noticeModule = defineModule({
  name: 'notice',
  needs: ['accounts', 'organizations', 'userAdmin', 'notifications'],
  migrations: [{ name: '0028-notice', sql: m0028 }],
  apiTags: { notice: 'Notices and my notices (read state per user)' },
  build: ({ core, services }) => {
    const receivers = new NoticeReceivers({
      allUserIds: () => services.accounts.allIds(),
      userExists: (id) => services.accounts.findById(id) !== undefined,
      organizationExists: (id) => services.organizations.exists(id),
      subtreeIds: (id) => services.organizations.subtreeIds(id),
      membersOf: (organizationIds) => services.userAdmin.memberIdsOf(organizationIds),
    });
    const notices = new NoticeService({ core, notices: new NoticeRepository(core.db), receivers });
    // A published notice reaches its receivers' header bell as a GENERAL notification (its title).
    core.bus.on('notice.published', ({ noticeId, userIds }) => {
      if (userIds.length) services.notifications.notify({ userIds, type: 'GENERAL', subject: notices.get(noticeId).title, text: null, info: {} });
    });
    return { notices };
  },
  routes: registerNoticeRoutes,
});
