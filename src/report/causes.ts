// Root causes: one defect of a server (a void method answering 200, camelCase field names) fails
// dozens or hundreds of scenarios with the same message, each citing its own clause. Grouping the
// failures by method + rule + shape of the difference turns that into one line per defect, which
// the console, HTML, Markdown and GitHub annotations lead with.
import { isMethodName } from '../protocols/bridge/methods.js';
import { isFailing, type AnyReportScenario } from './model.js';

interface Cause {
  /** The method whose answer failed (from the message; undefined when none is named). */
  method: string | undefined;
  /** The failure with its arguments and values taken out: what every scenario of the cause shares. */
  key: string;
  /** The first affected scenario's message, first line: a real instance of the cause. */
  example: string;
  /**
   * Set when the failing call is not the one the scenarios are about (clear_all_data before every
   * scenario, add_message setting up a search): those scenarios are blocked, not judged.
   */
  blockedBy?: string;
  scenarios: AnyReportScenario[];
}

/** A method name at the head of a message, with its arguments and an element index: `list_sessions()[0]`. */
function headOf(line: string): { method: string | undefined; rest: string } {
  const m = /^([a-z][a-z0-9_]*)/.exec(line);
  if (!m || !isMethodName(m[1]!)) return { method: undefined, rest: line };
  let i = m[1]!.length;
  if (line[i] === '(') {
    // Skip the balanced argument list (quoted strings may hold parentheses).
    let depth = 0;
    let quoted = false;
    for (; i < line.length; i++) {
      const ch = line[i];
      if (quoted) {
        if (ch === '\\') i++;
        else if (ch === '"') quoted = false;
      } else if (ch === '"') quoted = true;
      else if (ch === '(') depth++;
      else if (ch === ')' && --depth === 0) {
        i++;
        break;
      }
    }
  }
  const rest = line.slice(i).replace(/^\[\d+\]/, '');
  return { method: m[1], rest };
}

/** The shape of a message: values, ids, numbers and the clause it cites taken out. */
function shapeOf(text: string): string {
  return text
    .replace(/ \(and the same in \d+ more elements?\)/g, ' (…)')
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>')
    .replace(/\[\d+\]/g, '[]')
    .replace(/\b\d+(\.\d+)?\b/g, 'N')
    .replace(/\s*\((?:SPEC|BRIDGE|PROTO|HOSTED)-[A-Z0-9.-]+(?::[^()]*(?:\([^()]*\)[^()]*)*)?\)\s*$/, '')
    .trim();
}

/** What a failure's message says, as a grouping key and its method. */
function causeKey(s: Pick<AnyReportScenario, 'message' | 'outcome'>): { method: string | undefined; key: string; example: string } {
  const lines = (s.message ?? s.outcome).split('\n');
  const { method, rest } = headOf(lines[0]!);
  // The issue lines of a data-model violation belong to its shape; an exchange listing does not.
  const details = lines.slice(1, 6).filter((l) => /^\s+\S/.test(l));
  const head = `${method ?? ''}${rest}`;
  const example = clipLine(rest.endsWith(':') && details[0] ? `${head} ${details[0].trim()}${details.length > 1 ? ` (+${details.length - 1} more)` : ''}` : head);
  return { method, key: [`${method ?? ''}${shapeOf(rest)}`, ...details.map(shapeOf)].join('\n'), example };
}

const clipLine = (text: string, max = 240) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** The methods a scenario is about: its group when that is a method, and the methods its title names. */
function subjectsOf(s: AnyReportScenario): string[] {
  const named = [...s.title.matchAll(/[a-z][a-z0-9_]+/g)].map((m) => m[0]).filter(isMethodName);
  return isMethodName(s.group) ? [s.group, ...named] : named;
}

/**
 * The call itself failed (a protocol or transport fault, a data-model violation, a refusal, a
 * missing method), as opposed to a check of what it answered, which is the scenario's own verdict.
 */
const callFailed = (s: AnyReportScenario) =>
  s.outcome === 'error' || /^[a-z_]+(\(.*?\))?(\[\d+\])?: (response does not match the data model|expected success, got|not implemented)/.test(s.message ?? '');

function blockedBy(method: string | undefined, s: AnyReportScenario): string | undefined {
  if (method === undefined || !('tier' in s) || !callFailed(s)) return undefined;
  const subjects = subjectsOf(s);
  // clear_all_data runs before every scenario: a failure there blocks any scenario not about it.
  if (method === 'clear_all_data') return subjects.includes(method) ? undefined : method;
  return subjects.length > 0 && !subjects.includes(method) ? method : undefined;
}

/** The failed and errored ones of a report's scenarios (every section's) grouped by cause, the largest first. */
export function causesOf(scenarios: readonly AnyReportScenario[]): Cause[] {
  const byKey = new Map<string, Cause>();
  for (const s of scenarios) {
    if (!isFailing(s.outcome)) continue;
    const { method, key, example } = causeKey(s);
    const id = `${s.outcome}\n${key}`;
    let c = byKey.get(id);
    if (!c) {
      c = { method, key, example, scenarios: [] };
      byKey.set(id, c);
    }
    c.scenarios.push(s);
  }
  const causes = [...byKey.values()];
  for (const c of causes) {
    // Labelled when most of its scenarios are about another method (a few may be about this one).
    const blocked = c.scenarios.filter((s) => blockedBy(c.method, s) !== undefined).length;
    if (c.method !== undefined && blocked * 2 > c.scenarios.length) c.blockedBy = c.method;
  }
  return causes.sort((a, b) => b.scenarios.length - a.scenarios.length);
}

/** "blocked by clear_all_data: clear_all_data: 204 expected, got 200 … — 202 scenarios" */
export function causeLine(c: Cause): string {
  const n = c.scenarios.length;
  const head = c.blockedBy === undefined ? c.example : c.example.startsWith(`${c.blockedBy}:`) ? `blocked by ${c.example}` : `blocked by ${c.blockedBy}: ${c.example}`;
  return `${head} — ${n} scenario${n === 1 ? '' : 's'}`;
}

/** Scenario ids, consecutive numbers folded: "SCN-B-001–043, SCN-B-045, SCN-S-002" (at most `max` pieces). */
export function compactIds(ids: readonly string[], max = 12): string {
  const parsed = ids.map((id) => {
    const m = /^(.*-)(\d+)$/.exec(id);
    return { id, prefix: m ? m[1]! : id, n: m ? Number(m[2]) : NaN, width: m ? m[2]!.length : 0 };
  });
  const pieces: { text: string; count: number }[] = [];
  for (let i = 0; i < parsed.length; ) {
    let j = i;
    while (j + 1 < parsed.length && parsed[j + 1]!.prefix === parsed[i]!.prefix && parsed[j + 1]!.n === parsed[j]!.n + 1) j++;
    if (j - i >= 2) {
      pieces.push({ text: `${parsed[i]!.id}–${String(parsed[j]!.n).padStart(parsed[j]!.width, '0')}`, count: j - i + 1 });
      i = j + 1;
    } else {
      pieces.push({ text: parsed[i]!.id, count: 1 });
      i++;
    }
  }
  if (pieces.length <= max) return pieces.map((p) => p.text).join(', ');
  const rest = pieces.slice(max).reduce((n, p) => n + p.count, 0);
  return `${pieces.slice(0, max).map((p) => p.text).join(', ')} and ${rest} more`;
}
