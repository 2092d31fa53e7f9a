// The Bronze suite: the scenario files of this folder.
import type { Scenario } from '../../src/profiles/bridge/scenario.js';
import { scenarios as dataModel } from './data-model.js';
import { scenarios as addMessage } from './add-message.js';
import { scenarios as getConversation } from './get-conversation.js';
import { scenarios as searchMessages } from './search-messages.js';
import { scenarios as listSessions } from './list-sessions.js';
import { scenarios as deleteMessage } from './delete-message.js';
import { scenarios as clearSession } from './clear-session.js';
import { scenarios as ordering } from './ordering.js';
import { scenarios as idempotency } from './idempotency.js';
import { scenarios as protocolShape } from './protocol-shape.js';
import { scenarios as historyFidelity } from './history-fidelity.js';
import { scenarios as concurrency } from './concurrency.js';
import { scenarios as histories2 } from './histories-2.js';

export const bronze: Scenario[] = [
  ...dataModel,
  ...addMessage,
  ...getConversation,
  ...searchMessages,
  ...listSessions,
  ...deleteMessage,
  ...clearSession,
  ...ordering,
  ...idempotency,
  ...protocolShape,
  ...historyFidelity,
  ...concurrency,
  ...histories2,
];
