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
];
