/** The cloud platform form's values (text inputs, as typed) and the contract body they become. */
import type { CloudConfig, CloudConfigView } from '../../../server/contract/cloud.ts';
import { parsePort } from './cloudRules.ts';

export interface CloudValues {
  platformAddress: string;
  platformPort: string;
  platformKey: string;
  platformSecret?: string;
  platformTls?: boolean;
  platformHttpUrl?: string;
  /** A new CA in PEM, '' to remove the stored one, undefined to keep it. */
  platformCaPem?: string;
}

export function toCloudConfig(values: CloudValues): CloudConfig {
  const httpUrl = values.platformHttpUrl?.trim();
  return {
    platformAddress: values.platformAddress.trim(),
    platformPort: parsePort(values.platformPort) ?? 0,
    platformKey: values.platformKey.trim(),
    platformSecret: values.platformSecret?.trim() ?? '',
    platformTls: values.platformTls ?? false,
    ...(httpUrl ? { platformHttpUrl: httpUrl } : {}),
    ...(values.platformCaPem !== undefined ? { platformCaPem: values.platformCaPem } : {}),
  };
}

/** The form prefilled from what is stored; the secret is never returned and stays empty. */
export function cloudValuesOf(view: NonNullable<CloudConfigView>): CloudValues {
  return {
    platformAddress: view.platformAddress,
    platformPort: String(view.platformPort),
    platformKey: view.platformKey,
    platformTls: view.platformTls,
    platformHttpUrl: view.platformHttpUrl ?? '',
  };
}
