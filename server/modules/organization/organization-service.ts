/** Rules of the organization tree: sibling-unique names, moves without cycles, guarded deletes. */
import type { DeleteResult } from '../../contract/common.ts';
import type {
  Organization,
  OrganizationBody,
  OrganizationListQuery,
  OrganizationPage,
  OrganizationTreeNode,
  OrganizationUpdateBody,
} from '../../contract/organization.ts';
import { transaction, type Db } from '../../db/sqlite.ts';
import { inScope, type DeviceScope } from '../../lib/device-scope.ts';
import { assertNoViolations, notFound, refusedFor, type Violation } from '../../lib/field-errors.ts';
import { newId } from '../../lib/ids.ts';
import type { OrganizationRepository } from './organization-repository.ts';

export interface OrganizationServiceDeps {
  db: Db;
  organizations: OrganizationRepository;
  /** Told after an organization got another parent (the scopes below the old and new parents changed). */
  moved?: (organizationId: string) => void;
}

export class OrganizationService {
  private holdsDevices: (id: string) => boolean = () => false;

  constructor(private readonly deps: OrganizationServiceDeps) {}

  /** The device module, built after this one, says whether devices belong to an organization (a delete is refused then). */
  holdsDevicesWith(holds: (id: string) => boolean): void {
    this.holdsDevices = holds;
  }

  /**
   * Roots with nested children; every level keeps the repository's order (sort, then name). With a
   * scope, only its organizations: one whose parent is outside it is a root of what the caller sees.
   */
  tree(scope: DeviceScope = null): OrganizationTreeNode[] {
    const nodes = new Map<string, OrganizationTreeNode>();
    const all = this.deps.organizations.all().filter((org) => inScope(scope, org.id));
    for (const org of all) nodes.set(org.id, { ...org, children: [] });
    const roots: OrganizationTreeNode[] = [];
    for (const org of all) {
      const node = nodes.get(org.id)!;
      const parent = org.parentId ? nodes.get(org.parentId) : undefined;
      (parent ? parent.children : roots).push(node);
    }
    return roots;
  }

  page(query: OrganizationListQuery, scope: DeviceScope = null): OrganizationPage {
    return this.deps.organizations.page(query, scope);
  }

  /** 404 for one outside `scope`, as for one that does not exist. */
  get(id: string, scope: DeviceScope = null): Organization {
    const org = this.deps.organizations.findById(id);
    if (!org || !inScope(scope, org.id)) throw notFound();
    return org;
  }

  exists(id: string): boolean {
    return this.deps.organizations.exists(id);
  }

  /** The names of those of `ids` that exist (a device list shows its organizations' names). */
  namesOf(ids: readonly string[]): Map<string, string> {
    return this.deps.organizations.namesOf(ids);
  }

  /** The organization and every organization below it. */
  subtreeIds(id: string): string[] {
    return this.deps.organizations.subtreeIds(id);
  }

  create(body: OrganizationBody): Organization {
    const now = Date.now();
    const org: Organization = {
      id: newId(),
      name: body.name,
      sort: body.sort ?? 0,
      parentId: body.parentId ?? null,
      createdTime: now,
      updatedTime: now,
    };
    return transaction(this.deps.db, () => {
      assertNoViolations(this.violations(org));
      this.deps.organizations.insert(org);
      return org;
    });
  }

  update(body: OrganizationUpdateBody): Organization {
    const updated = transaction(this.deps.db, () => {
      const current = this.get(body.id);
      const org: Organization = {
        ...current,
        name: body.name,
        sort: body.sort ?? 0,
        parentId: body.parentId ?? null,
        updatedTime: Date.now(),
      };
      assertNoViolations(this.violations(org));
      this.deps.organizations.update(org);
      return { org, moved: org.parentId !== current.parentId };
    });
    if (updated.moved) this.deps.moved?.(updated.org.id);
    return updated.org;
  }

  /**
   * All or nothing: refused while an organization has children outside `ids` or holds devices.
   * Unknown ids are skipped. Children go before their parents.
   */
  delete(ids: readonly string[]): DeleteResult {
    return transaction(this.deps.db, () => {
      const { organizations } = this.deps;
      const targets = [...new Set(ids)].map((id) => organizations.findById(id)).filter((o): o is Organization => !!o);
      const doomed = new Set(targets.map((o) => o.id));
      const withChildren = targets.filter((o) => organizations.childIds(o.id).some((child) => !doomed.has(child)));
      if (withChildren.length) throw refusedFor('error.organization.hasChildren', withChildren.map((o) => o.name));
      const withDevices = targets.filter((o) => this.holdsDevices(o.id));
      if (withDevices.length) throw refusedFor('error.organization.hasDevices', withDevices.map((o) => o.name));
      const depth = depthsOf(organizations.all());
      targets.sort((a, b) => (depth.get(b.id) ?? 0) - (depth.get(a.id) ?? 0));
      for (const org of targets) organizations.delete(org.id);
      return { deleted: targets.length };
    });
  }

  private violations(org: Organization): Violation[] {
    const { organizations } = this.deps;
    const found: Violation[] = [];
    if (org.parentId !== null) {
      if (!organizations.exists(org.parentId)) {
        found.push({ field: 'parentId', key: 'error.organization.parentNotFound' });
      } else if (organizations.subtreeIds(org.id).includes(org.parentId)) {
        found.push({ field: 'parentId', key: 'error.organization.parentCycle' });
      }
    }
    const holder = organizations.siblingNamed(org.parentId, org.name);
    if (holder !== undefined && holder !== org.id) found.push({ field: 'name', key: 'error.organization.nameTaken' });
    return found;
  }
}

/** Distance from the root for each organization. */
function depthsOf(all: readonly Organization[]): Map<string, number> {
  const parentOf = new Map(all.map((o) => [o.id, o.parentId]));
  const depth = new Map<string, number>();
  for (const org of all) {
    let d = 0;
    // Bounded by the number of organizations: the service never lets a cycle in.
    for (let p = org.parentId; p !== null && p !== undefined && d <= all.length; p = parentOf.get(p) ?? null) d++;
    depth.set(org.id, d);
  }
  return depth;
}
