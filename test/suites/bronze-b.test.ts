// Power of the Bronze scenarios of part B, SCN-B-055 … SCN-B-093 and the protocol-shape scenarios
// SCN-B-120 … SCN-B-135: each passes on the reference server (and on variants making other allowed
// choices) and fails on a variant that breaks exactly the rule it checks, with a message naming the
// rule (variants/bronze-b.ts).
import { describe, expect, it } from 'vitest';
import { POWER_PARTS, provePower } from '../harness/power.js';
import { runOnVariant } from '../harness/variants.js';
import { FAULTS, VALID, bronzeOnly, bronzeOnlyRefusing } from './variants/bronze-b.js';

provePower('Bronze part B (SCN-B-055 … 093, 120 … 135)', POWER_PARTS['bronze-b'], FAULTS, VALID);

describe('Bronze part B (SCN-B-055 … 093, 120 … 135): notes', () => {
  it('a Bronze-only target gets a note where a rule needs Silver methods', async () => {
    const results = await runOnVariant({ wrap: bronzeOnly }, ['SCN-B-128', 'SCN-B-132']);
    for (const r of results) expect(r.notes.join('\n')).toMatch(/not implemented \(a Silver method\)/);
  });

  it('a target refusing the Silver methods with a well-formed error gets a note, not a Bronze failure', async () => {
    const results = await runOnVariant({ wrap: bronzeOnlyRefusing }, ['SCN-B-128', 'SCN-B-132', 'SCN-B-135']);
    for (const r of results) {
      expect(r.outcome).toBe('passed');
      expect(r.notes.join('\n')).toMatch(/refused the call \(500 \{"error": "method \\"(add_entity|start_trace)\\" has no equivalent here"\}; a Silver method\)/);
    }
  });
});
