// The kit's own readings: what an assertion checks that no sentence of the specifications states
// (good practice, robustness, a reading of a silent point the kit prefers). An assertion citing one
// is an ADVISORY (src/engine/assert.ts: check.advise): run, reported in every format with its
// reason, counted apart, never failing a tier unless a run asks for it (--advisories=fail).

export interface Advisory {
  /** ADV-<kebab-name>. */
  id: string;
  /** One line: what the kit expects. */
  expects: string;
  /** Why it is not a rule: which sentences come nearest and why they do not settle it. */
  reason: string;
  /** The nearest sentences (ids of the clause map). */
  near: readonly string[];
}

export const ADVISORIES: readonly Advisory[] = [
  {
    id: 'ADV-refuse-missing-param',
    expects: 'a call missing a required parameter is refused with 400 or 500 {"error": …} and changes nothing',
    reason:
      'the method tables mark parameters required, and the Errors section says what a failed call returns, but no sentence says a server must refuse a call that lacks one',
    near: ['BRIDGE-ERRORS-1', 'BRIDGE-RESPONSE-6'],
  },
  {
    id: 'ADV-refuse-wrong-type',
    expects: 'a parameter of the wrong JSON type is refused with 400 or 500 {"error": …} and changes nothing',
    reason: 'the data model gives the types of fields, not what a server does with a parameter of another type',
    near: ['BRIDGE-ERRORS-1', 'BRIDGE-GENERAL-5'],
  },
  // Platinum (issue 23, branch s5-platinum).
  {
    id: 'ADV-delete-unknown-conversation',
    expects: 'delete_conversation of an id that never named a conversation succeeds, like a second delete',
    reason: 'SPEC-V5-5.1.3 makes a delete idempotent (a second delete of the same conversation succeeds); it does not say what deleting an id that never existed answers (silent point delete-unknown)',
    near: ['SPEC-V5-5.1.3'],
  },
  {
    id: 'ADV-bulk-refusal-atomic',
    expects: 'a bulk_add_messages that is refused adds none of its messages',
    reason: 'SPEC-V5-5.1.4 caps the input at 100 and BRIDGE-ERRORS-1 says what a failed call answers; neither says a refused call changes nothing',
    near: ['SPEC-V5-5.1.4', 'BRIDGE-ERRORS-1'],
  },
];
