/**
 * Organization calls over the contract. Saves are silent (the drawer shows failures on their
 * fields); deletes are silent too: the page shows a refusal (children, devices) where it stays.
 */
import {
  organizationRoutes,
  type Organization,
  type OrganizationBody,
  type OrganizationUpdateBody,
} from '../../../server/contract/organization.ts';
import type { DeleteResult } from '../../../server/contract/common.ts';
import { api } from '../../lib/api-client.ts';

export function createOrganization(body: OrganizationBody): Promise<Organization> {
  return api(organizationRoutes.create, { body, silent: true });
}

export function updateOrganization(body: OrganizationUpdateBody): Promise<Organization> {
  return api(organizationRoutes.update, { body, silent: true });
}

export function deleteOrganizations(ids: string[]): Promise<DeleteResult> {
  return api(organizationRoutes.delete, { body: { ids }, silent: true });
}
