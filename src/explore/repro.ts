// A failing sequence as things a vendor can keep: a curl script (the kit's own reproduction
// format, ids captured from answers as the script runs) and a ready-to-paste scenario file
// (`defineScenario`) whose last check is the step that failed, expected values from the model.
import type { Exchange } from '../profiles/bridge/index.js';
import { METHODS, type MethodName } from '../protocols/bridge/index.js';
import { reproScript } from '../report/repro.js';
import type { StepRecord } from './commands.js';

/**
 * The minimal sequence as explore-repro.sh. `replay`: the flags of `tck explore` that replay it
 * (--seed, --path, …), which the script names as the command that judges what it cannot.
 */
export function curlScript(exchanges: readonly Exchange[], message: string, url: string, replay?: string): string {
  const status = expectedStatus(message);
  const judged = status !== undefined && exchanges.length > 0 ? { judged: { exchange: exchanges.length - 1, status } } : {};
  return reproScript(
    { id: 'explore-repro', title: 'the minimal sequence tck explore found', clauses: [], outcome: 'failed', message, exchanges, ...judged },
    { url, what: 'tck explore', judgeWith: `npx tck explore --url %s${replay ? ` ${replay}` : ''}` },
  );
}

/**
 * The statuses the last call of a finding should have answered, when the finding is about its
 * status: "start_trace: 200 expected, got 201 …", or a refusal of a call the protocol lets
 * nobody refuse ("get_tool_stats: refused with 500 …", "clear_all_data: answered 500": the
 * protocol's success, 204 for a void method, 200 otherwise). The script then checks that status:
 * it fails on the server as it was and passes once the server is fixed. Otherwise undefined.
 */
function expectedStatus(message: string): number[] | undefined {
  const stated = /^[a-z_]+: (\d{3}) expected, got \d{3}/.exec(message)?.[1];
  if (stated !== undefined) return [Number(stated)];
  const refused = /^([a-z_]+): (?:refused with|answered) \d{3}/.exec(message)?.[1];
  if (refused === undefined || !Object.hasOwn(METHODS, refused)) return undefined;
  return [METHODS[refused as MethodName].kind === 'void' ? 204 : 200];
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

const TIMESTAMPS = new Set(['timestamp', 'created_at', 'updated_at', 'started_at', 'completed_at']);
const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A JS literal of a JSON value; strings that are model ids become the expression of their step. */
function literal(value: unknown, ids: Map<string, string>, drop = false): string {
  if (typeof value === 'string') return ids.get(value) ?? JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => literal(v, ids, drop)).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([k, v]) => !drop || (v !== null && !TIMESTAMPS.has(k) && k !== 'embedding'));
    return `{ ${entries.map(([k, v]) => `${IDENT.test(k) ? k : JSON.stringify(k)}: ${literal(v, ids, drop)}`).join(', ')} }`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

export function scenarioFile(steps: readonly StepRecord[], message: string, seed: number): string {
  const ids = new Map<string, string>();
  const tiers = steps.map((s) => METHODS[s.method].tier);
  const tier = tiers.includes('gold') ? 'gold' : tiers.includes('silver') ? 'silver' : 'bronze';
  const body: string[] = [];
  steps.forEach((s, i) => {
    const last = i === steps.length - 1;
    const call = `await bridge.${s.method}(${literal(s.modelParams, ids)})`;
    const returns = METHODS[s.method as MethodName].kind !== 'void';
    body.push(returns ? `    const r${i + 1} = ${call};` : `    ${call};`);
    const made = (s.model?.body as { id?: unknown } | undefined)?.id;
    if (typeof made === 'string' && !ids.has(made) && s.method !== 'get_conversation') ids.set(made, `r${i + 1}.id`);
    if (last && returns && s.model && s.model.status < 300) {
      body.push(`    // tck explore: ${message.replace(/\s+/g, ' ')}`);
      body.push(`    check.equal(strip(r${i + 1}), ${literal(s.model.body, ids, true)}, ${JSON.stringify(`${s.method}: answer as the reference model gives it`)});`);
    }
  });
  return `// Found by \`tck explore --seed ${seed}\`: the minimal sequence, as a regression scenario.
// Expected values are the reference model's answer; timestamps, embeddings and nulls are left out
// (strip). Where the protocol is silent (order of lists, search scores) loosen the check by hand.
import { defineScenario } from 'agent-memory-tck';

const strip = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(strip)
    : v !== null && typeof v === 'object'
      ? Object.fromEntries(Object.entries(v).filter(([k, x]) => x !== null && !${JSON.stringify([...TIMESTAMPS])}.includes(k) && k !== 'embedding').map(([k, x]) => [k, strip(x)]))
      : v;

export default defineScenario({
  id: 'SCN-X-001',
  tier: '${tier}',
  group: 'explore',
  clauses: [],
  title: ${JSON.stringify(`explore: ${steps.at(-1)?.method ?? 'a sequence'} after ${plural(Math.max(0, steps.length - 1), 'earlier step')} (seed ${seed})`)},
  asserts: ${JSON.stringify(`Replays the ${plural(steps.length, 'step')} tck explore found (seed ${seed}); the last answer must be the model's. Found: ${message}`)},
  async run({ bridge, check }) {
${body.join('\n')}
  },
});
`;
}
