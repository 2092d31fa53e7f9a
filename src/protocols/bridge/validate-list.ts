// Judging a list answer element by element, bounded however long the list is: issues and notes
// stop being collected (and worded) at MAX_ISSUES, a list with that many issues is not looked at
// further (its verdict is settled), and the event loop gets a turn every YIELD_EVERY elements so
// that a scenario timeout or a SIGINT is not held up by a million-element answer.
import type { z } from 'zod';
import { MAX_ISSUES, capped, validate } from './validate.js';

/** Elements judged between two turns of the event loop. */
export const YIELD_EVERY = 2_000;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface ListValidation {
  ok: boolean;
  issues: string[];
  notes: string[];
}

/**
 * Validates each element of `list` against `schema` (paths `[i]…`). `stopped()` is asked at each
 * turn: when it says true, judging ends early (the caller no longer wants the verdict).
 */
export async function validateList(schema: z.ZodType, list: readonly unknown[], stopped: () => boolean = () => false): Promise<ListValidation> {
  const issues: string[] = [];
  const notes: string[] = [];
  let issueCount = 0;
  let noteCount = 0;
  let unjudged = 0;
  for (let i = 0; i < list.length; i++) {
    if (i > 0 && i % YIELD_EVERY === 0) {
      await turn();
      if (stopped()) break;
    }
    if (issueCount >= MAX_ISSUES) {
      unjudged = list.length - i;
      break;
    }
    const r = validate(schema, list[i], `[${i}]`);
    for (const line of r.issues) if (issueCount++ < MAX_ISSUES) issues.push(line);
    for (const line of r.notes) if (noteCount++ < MAX_ISSUES) notes.push(line);
  }
  const out = capped(issues, issueCount);
  if (unjudged > 0) out.push(`(the other ${unjudged} elements were not judged: ${MAX_ISSUES} issues settle the verdict)`);
  return { ok: issueCount === 0, issues: out, notes: capped(notes, noteCount) };
}
