// Small helpers of the Platinum scenarios.
import type { BridgeApi } from '../../src/profiles/bridge/context.js';
import type { PlatinumConversation } from '../../src/protocols/bridge/index.js';

/** A conversation of a user whose id names the scenario (the established tests use such ids). */
export function newConversation(bridge: BridgeApi, userId: string): Promise<PlatinumConversation> {
  return bridge.create_conversation({ user_id: userId, metadata: { tck: userId } });
}

export const ids = (items: readonly { id: string }[]) => items.map((x) => x.id);
export const short = (id: string) => `${id.slice(0, 8)}…`;
