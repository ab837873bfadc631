/**
 * Cloud accounts on the gateway: sign-in with the cloud's tenant or customer accounts (checked by
 * the cloud's ThingsBoard-style REST API, with an offline verifier), and `GET /api/auth/user` in
 * ThingsBoard's shape so ThingsBoard REST clients (and another gateway) can use this one.
 * Listed after the organization module: a customer user's organization is found by name.
 */
import { defineModule } from '../../module.ts';
import { registerCloudAccountRoutes } from './cloud-account-routes.ts';
import { CloudSignIn } from './cloud-sign-in.ts';
import m0023 from './migrations/0023-cloud-user-link.sql';
import { tenantIdOf } from './tb-user.ts';

export interface CloudAccounts {
  signIn: CloudSignIn;
  /** This gateway's tenant id in ThingsBoard answers. */
  tenantId: string;
}

declare module '../../module.ts' {
  interface Services {
    cloudAccounts: CloudAccounts;
  }
}

export const cloudAccountModule = defineModule({
  name: 'cloud-account',
  needs: ['accounts', 'sessions', 'cloud', 'organizations', 'userAdmin'],
  migrations: [{ name: '0023-cloud-user-link', sql: m0023 }],
  build: ({ core, log, services }) => {
    const signIn = new CloudSignIn({ db: core.db, log, services, offlineDays: core.config.cloudOfflineDays });
    services.sessions.useExternalSignIn(signIn);
    return { cloudAccounts: { signIn, tenantId: tenantIdOf(core.secrets.jwtKey) } };
  },
  routes: registerCloudAccountRoutes,
});
