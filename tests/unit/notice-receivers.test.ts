/**
 * Who receives a notice (server/modules/notice/notice-receivers.ts): ORGANIZATION asks the
 * membership for the node alone, DEPARTMENT for the node and every node below it.
 */
import { describe, expect, it } from 'vitest';
import type { OrganizationTreeNode } from '../../server/contract/organization.ts';
import { NoticeReceivers } from '../../server/modules/notice/notice-receivers.ts';

function node(id: string, children: OrganizationTreeNode[] = []): OrganizationTreeNode {
  return { id, name: id, sort: 0, parentId: null, createdTime: 0, updatedTime: 0, children };
}

// hq ─ east ─ plant ; hq ─ west ; other
const tree = [node('hq', [node('east', [node('plant')]), node('west')]), node('other')];
const members: Record<string, string[]> = { hq: ['boss'], east: ['ann'], plant: ['bob', 'ann'], west: ['cy'], other: ['dee'] };

/** The node `id` and every node below it, as OrganizationService.subtreeIds answers. */
function subtree(nodes: OrganizationTreeNode[], id: string, inside = false): string[] {
  return nodes.flatMap((n) => {
    const here = inside || n.id === id;
    return [...(here ? [n.id] : []), ...subtree(n.children, id, here)];
  });
}

function receivers(): { r: NoticeReceivers; asked: string[][] } {
  const asked: string[][] = [];
  const r = new NoticeReceivers({
    allUserIds: () => ['boss', 'ann', 'bob', 'cy', 'dee'],
    userExists: (id) => ['boss', 'ann', 'bob', 'cy', 'dee'].includes(id),
    organizationExists: (id) => subtree(tree, id).length > 0,
    subtreeIds: (id) => subtree(tree, id),
    membersOf: (ids) => {
      asked.push([...ids].sort());
      return ids.flatMap((id) => members[id] ?? []);
    },
  });
  return { r, asked };
}

describe('notice receivers', () => {
  it('gives ALL every user and INDIVIDUAL the named users that exist, once each', () => {
    const { r } = receivers();
    expect(r.resolve('ALL', [])).toEqual(['boss', 'ann', 'bob', 'cy', 'dee']);
    expect(r.resolve('INDIVIDUAL', ['ann', 'ann', 'ghost'])).toEqual(['ann']);
  });

  it('gives ORGANIZATION the members of the node alone', () => {
    const { r, asked } = receivers();
    expect(r.resolve('ORGANIZATION', ['east'])).toEqual(['ann']);
    expect(asked).toEqual([['east']]);
  });

  it('gives DEPARTMENT the members of the node and every node below it, once each', () => {
    const { r, asked } = receivers();
    expect(r.resolve('DEPARTMENT', ['east']).sort()).toEqual(['ann', 'bob']);
    expect(asked).toEqual([['east', 'plant']]);
    expect(r.resolve('DEPARTMENT', ['hq']).sort()).toEqual(['ann', 'bob', 'boss', 'cy']);
  });

  it('names the receiver ids that do not exist', () => {
    const { r } = receivers();
    expect(r.unknown('DEPARTMENT', ['plant', 'mars'])).toEqual(['mars']);
    expect(r.unknown('INDIVIDUAL', ['ann', 'ghost'])).toEqual(['ghost']);
    expect(r.unknown('ALL', ['anything'])).toEqual([]);
  });
});
