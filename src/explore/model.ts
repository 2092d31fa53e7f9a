// The model explore compares a server with: the embedded reference store, driven in-process
// through its own dispatcher (the same code path as the reference server, without HTTP), plus
// what explore learns about the server while a sequence runs — which server id stands for which
// model id, and the step numbers the server handed out.
import { MemoryStore, createDispatcher, type BridgeResponse } from '../servers/bridge/index.js';
import type { StoreSnapshot } from '../servers/bridge/store.js';

/** A disagreement between the server and the model, or a rule the server broke on its own. */
export class Mismatch extends Error {
  constructor(message: string, readonly tolerance?: string) {
    super(message);
    this.name = 'Mismatch';
  }
}

/** The kinds of object a command can refer to, and where the model keeps them. */
export type RefKind = 'message' | 'entity' | 'trace' | 'step';

/**
 * Server id <-> model id, learned when an object is created (silent point 'uuid-version': ids are
 * correlated, never compared). Keys are lower-cased: a server may answer ids in upper-case hex.
 */
class Correlator {
  readonly #toModel = new Map<string, string>();
  readonly #toServer = new Map<string, string>();

  bind(serverId: string, modelId: string, what: string): void {
    const key = serverId.toLowerCase();
    const known = this.#toModel.get(key);
    if (known !== undefined && known !== modelId) {
      throw new Mismatch(`${what}: the server handed out id ${serverId} again; it already names another object created earlier in this sequence`);
    }
    this.#toModel.set(key, modelId);
    this.#toServer.set(modelId, serverId);
  }

  toModel(serverId: string): string | undefined {
    return this.#toModel.get(serverId.toLowerCase());
  }

  toServer(modelId: string): string | undefined {
    return this.#toServer.get(modelId);
  }
}

export class ExploreModel {
  readonly store = new MemoryStore();
  readonly dispatch: (method: string, body: unknown) => BridgeResponse = createDispatcher(this.store);
  readonly ids = new Correlator();
  /** The server's step_number of each step (by model step id), for 'step-base'. */
  readonly stepNumbers = new Map<string, number>();
  /** Every message id ever created (delete_message may name a deleted one: {deleted: false}). */
  readonly everyMessage: string[] = [];
  #snap: StoreSnapshot | undefined;

  /** The model's data now (cached until the next call changes it). */
  snapshot(): StoreSnapshot {
    return (this.#snap ??= this.store.snapshot());
  }

  call(method: string, body: Record<string, unknown>): BridgeResponse {
    this.#snap = undefined;
    return this.dispatch(method, body);
  }

  /** Live objects of a kind, in creation order; messages: every one ever created. */
  pool(kind: RefKind): string[] {
    const s = this.snapshot();
    switch (kind) {
      case 'message':
        return this.everyMessage;
      case 'entity':
        return s.entities.map((e) => e.id);
      case 'trace':
        return s.traces.map((t) => t.id);
      case 'step':
        return s.traces.flatMap((t) => t.steps.map((st) => st.id));
    }
  }
}
