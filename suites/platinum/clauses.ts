// Volume 5 of the established SPEC.md ("Hosted-Service Operations", the Platinum tier) numbers its
// clauses SPEC-5.1.1 … SPEC-5.5.1, ids that Volume 4 (Gold, cross-memory) also uses for other
// rules. This kit names a Volume 5 clause SPEC-V5-<number> (SPEC-5.1.1 of Volume 5 is
// SPEC-V5-5.1.1); the registry's SCN-P scenarios keep their ids and cite their clause this way. A
// clause that holds two sentences has one id per sentence, lettered: SPEC-V5-5.3.1a / b, 5.5.1a / b.

/** Every clause of Volume 5 with its keyword (all MUST but 5.2.2). */
export const VOLUME5_CLAUSES: readonly { clause: string; keyword: 'MUST' | 'MAY' }[] = [
  '5.1.1', '5.1.2', '5.1.3', '5.1.4', '5.2.1', '5.2.2', '5.3.1', '5.3.2', '5.3.3', '5.3.4', '5.4.1', '5.4.2', '5.4.3', '5.4.4', '5.5.1',
].map((n) => ({ clause: v5(n), keyword: n === '5.2.2' ? 'MAY' : 'MUST' }));

/** The kit's id of a Volume 5 clause or sentence: v5('5.1.1') is 'SPEC-V5-5.1.1', v5('5.5.1a') 'SPEC-V5-5.5.1a'. */
export function v5(number: string): string {
  return `SPEC-V5-${number}`;
}

/** The kit's id of the registry's clause string of a Platinum scenario ('SPEC-5.1.1' -> 'SPEC-V5-5.1.1'). */
export function fromRegistry(clause: string): string {
  return v5(clause.replace(/^SPEC-/, ''));
}

/** Whether sentence id `id` is clause `clause` or one of its lettered sentences (SPEC-V5-5.5.1b of SPEC-V5-5.5.1). */
export const ofClause = (id: string, clause: string): boolean => id === clause || (id.startsWith(clause) && /^[a-z]$/.test(id.slice(clause.length)));

// The sentences themselves, with the kit's summary of each and why one is left unchecked, are in
// the clause map (src/protocols/clauses/spec.ts); docs/scenarios.md and docs/clauses.md are made from it.
