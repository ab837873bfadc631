/**
 * Who receives a notice: the one place that turns a notice's receivers into user ids.
 *
 * ALL and INDIVIDUAL are resolved from the accounts. ORGANIZATION (the node's members) and
 * DEPARTMENT (members of the node and every node below it) need the user ↔ organization membership,
 * which comes from `membersOf` as handed in by the module manifest (notice-module.ts): the users'
 * organization membership (server/modules/users/membership-repository.ts).
 */
import type { NoticeReceiverType } from '../../contract/notice.ts';
import type { OrganizationTreeNode } from '../../contract/organization.ts';

/** The users that are members of any of `organizationIds` (the nodes themselves, not below). */
export type MembersOf = (organizationIds: readonly string[]) => string[];


export interface ReceiverSources {
  /** Every user's id. */
  allUserIds(): string[];
  userExists(id: string): boolean;
  organizationTree(): OrganizationTreeNode[];
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
        return [...new Set(this.sources.membersOf(this.withDescendants(receiverIds)))];
    }
  }

  /** The ids of `ids` that name no user (INDIVIDUAL) or no organization (the others). */
  unknown(receiverType: NoticeReceiverType, ids: readonly string[]): string[] {
    if (receiverType === 'ALL') return [];
    if (receiverType === 'INDIVIDUAL') return ids.filter((id) => !this.sources.userExists(id));
    const known = new Set(this.flatten(this.sources.organizationTree()).map((n) => n.id));
    return ids.filter((id) => !known.has(id));
  }

  private withDescendants(ids: readonly string[]): string[] {
    const wanted = new Set(ids);
    const out = new Set<string>();
    const walk = (nodes: OrganizationTreeNode[], inside: boolean): void => {
      for (const node of nodes) {
        const here = inside || wanted.has(node.id);
        if (here) out.add(node.id);
        walk(node.children, here);
      }
    };
    walk(this.sources.organizationTree(), false);
    return [...out];
  }

  private flatten(nodes: OrganizationTreeNode[]): OrganizationTreeNode[] {
    return nodes.flatMap((n) => [n, ...this.flatten(n.children)]);
  }
}
