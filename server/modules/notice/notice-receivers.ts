/**
 * Who receives a notice: the one place that turns a notice's receivers into user ids.
 *
 * ALL and INDIVIDUAL are resolved from the accounts. ORGANIZATION (the node's members) and
 * DEPARTMENT (members of the node and every node below it) need the user ↔ organization membership,
 * which comes from `membersOf` as handed in by the module manifest (notice-module.ts): the users'
 * organization membership (server/modules/user-admin/membership-repository.ts).
 */
import type { NoticeReceiverType } from '../../contract/notice.ts';

/** The users that are members of any of `organizationIds` (the nodes themselves, not below). */
export type MembersOf = (organizationIds: readonly string[]) => string[];


export interface ReceiverSources {
  /** Every user's id. */
  allUserIds(): string[];
  userExists(id: string): boolean;
  organizationExists(id: string): boolean;
  /** The organization and every organization below it (OrganizationService.subtreeIds). */
  subtreeIds(id: string): string[];
  membersOf: MembersOf;
}

export class NoticeReceivers {
  constructor(private readonly sources: ReceiverSources) {}

  resolve(receiverType: NoticeReceiverType, receiverIds: readonly string[]): string[] {
    switch (receiverType) {
      case 'ALL':
        return this.sources.allUserIds();
      case 'INDIVIDUAL':
        return [...new Set(receiverIds)].filter((id) => this.sources.userExists(id));
      case 'ORGANIZATION':
        return [...new Set(this.sources.membersOf(receiverIds))];
      case 'DEPARTMENT':
        return [...new Set(this.sources.membersOf([...new Set(receiverIds.flatMap((id) => this.sources.subtreeIds(id)))]))];
    }
  }

  /** The ids of `ids` that name no user (INDIVIDUAL) or no organization (the others). */
  unknown(receiverType: NoticeReceiverType, ids: readonly string[]): string[] {
    if (receiverType === 'ALL') return [];
    if (receiverType === 'INDIVIDUAL') return ids.filter((id) => !this.sources.userExists(id));
    return ids.filter((id) => !this.sources.organizationExists(id));
  }
}
