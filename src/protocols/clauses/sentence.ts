// The clause map's unit: one normative sentence (or table row) of a specification, with a stable id.
// Every assertion of the kit cites sentences by these ids (src/engine/assert.ts: check.by); what no
// sentence states is an advisory (./advisories.ts). docs/clauses.md is generated from both.

/** The documents the kit enforces. */
export type SourceDoc = 'bridge' | 'hosted' | 'spec' | 'rfc';

export interface Sentence {
  /** Stable id: SPEC-2.2.1, SPEC-V5-5.5.1a, BRIDGE-RESPONSE-6, HOSTED-AUTH-3, RFC6750-3.1 … */
  id: string;
  doc: SourceDoc;
  /** Where it stands in its document ("Response rules", "Volume 2 › 2.2 get_conversation"). */
  section: string;
  /**
   * The sentence. For the two documents in ../shared/spec (bridge, hosted) it is quoted exactly (a
   * test finds every quote in its document); for the established SPEC and the RFCs it is the kit's
   * own summary (their prose is not copied).
   */
  text: string;
  /** RFC 2119 keyword where the document uses one. */
  keyword?: 'MUST' | 'MUST NOT' | 'SHOULD' | 'SHOULD NOT' | 'MAY' | 'REQUIRED';
  /**
   * Set when no assertion checks the sentence on purpose (it states nothing observable over the
   * protocol, or it is informative): why. The clause map lists it with this reason.
   */
  unchecked?: string;
  /**
   * A name for several sentences (a table as a whole, BRIDGE-MODEL-Message; a clause of several
   * sentences, SPEC-V5-5.5.1): citing it cites each of them. Not counted as a sentence of its own.
   */
  parts?: readonly string[];
  /**
   * A general sentence the kit enforces through more specific ones (BRIDGE-SERVICE-3, "returns JSON
   * that matches the data model", through the resource tables): an assertion citing one of these
   * counts for it too.
   */
  via?: readonly string[];
}
