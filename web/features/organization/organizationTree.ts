/**
 * The organization tree, loaded once and shared by every organization field and the organization
 * page; a change to organizations calls `reloadOrganizationTree()` so every user sees it.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { organizationRoutes, type OrganizationTreeNode } from '../../../server/contract/organization.ts';
import { api } from '../../lib/api-client.ts';

interface TreeState {
  tree: OrganizationTreeNode[];
  loading: boolean;
  loaded: boolean;
  failed: boolean;
}

let state: TreeState = { tree: [], loading: false, loaded: false, failed: false };
let pending: Promise<void> | null = null;
const listeners = new Set<() => void>();

function set(next: Partial<TreeState>): void {
  state = { ...state, ...next };
  listeners.forEach((fn) => fn());
}

/** Fetches the tree again (after a create, edit, move or delete of an organization). */
export function reloadOrganizationTree(): Promise<void> {
  pending ??= (async () => {
    set({ loading: true });
    try {
      set({ tree: await api(organizationRoutes.tree), loaded: true, failed: false });
    } catch {
      set({ failed: true });
    } finally {
      set({ loading: false });
      pending = null;
    }
  })();
  return pending;
}

/** The shared tree; the first user triggers the load. */
export function useOrganizationTree(): TreeState & { reload: () => Promise<void> } {
  const current = useSyncExternalStore(
    (fn) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    () => state,
  );
  useEffect(() => {
    if (!state.loaded && !state.loading) void reloadOrganizationTree();
  }, []);
  return { ...current, reload: reloadOrganizationTree };
}

/** Ids of `id` and all its descendants (an organization cannot move under any of them). */
export function subtreeIds(tree: readonly OrganizationTreeNode[], id: string): Set<string> {
  const out = new Set<string>();
  const collect = (node: OrganizationTreeNode): void => {
    out.add(node.id);
    node.children.forEach(collect);
  };
  const find = (nodes: readonly OrganizationTreeNode[]): boolean =>
    nodes.some((node) => (node.id === id ? (collect(node), true) : find(node.children)));
  find(tree);
  return out;
}

/** Name of an organization by id, searched through the tree. */
export function organizationName(tree: readonly OrganizationTreeNode[], id: string | null | undefined): string | undefined {
  if (!id) return undefined;
  for (const node of tree) {
    if (node.id === id) return node.name;
    const inner = organizationName(node.children, id);
    if (inner) return inner;
  }
  return undefined;
}
