// The data of the hosted reference service, one store per workspace (docs/isolation.md).
//
// Every conversation, message, entity, relationship, reasoning step and tool call belongs to the
// workspace of the credential that wrote it: each workspace has a HostedStore of its own, and a
// request reaches only the store of its credential's workspace. So another workspace's ids are
// unknown ids there (a read answers as for an id that never existed; a write or delete addressed
// to one changes nothing of the workspace that holds it), and every list, search, graph and query
// sees the caller's data only. The first workspace (the bootstrap key's) keeps the store the
// service was given, which is the one the bridge view (`--bridge-port`) serves: the bridge, which
// has no credentials, acts in that workspace.
import { HostedStore } from './store.js';

export class WorkspaceStores {
  private readonly stores = new Map<string, HostedStore>();

  /** `first`: the bootstrap workspace and its store; every other store is made like it (same clock and ids). */
  constructor(readonly firstWorkspace: string, readonly first: HostedStore) {
    this.stores.set(firstWorkspace, first);
  }

  /** The store of a workspace, made empty on its first use. */
  of(workspaceId: string): HostedStore {
    let store = this.stores.get(workspaceId);
    if (store === undefined) {
      store = new HostedStore({ now: this.first.now, newId: this.first.newId });
      this.stores.set(workspaceId, store);
    }
    return store;
  }

  /** The workspaces that have a store, the first one first. */
  workspaces(): string[] {
    return [...this.stores.keys()];
  }
}
