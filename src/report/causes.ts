// Root causes: one defect of a server (a void method answering 200, camelCase field names, a
// byte-order mark before every body) fails dozens or hundreds of scenarios, each with its own
// message. Grouping the failures by what went wrong turns that into one line per defect, which the
// console, HTML, Markdown and GitHub annotations lead with.
//
// What went wrong is read from the message's structure, never from the text a server sent:
//   - a fault of the HTTP answer itself (a status, a body that is not JSON, a JSON value of the
//     wrong kind, no answer at all) is a defect of the server's HTTP layer: one cause across every
//     method that shows it, keyed by the rule, the status class or the culprit character;
//   - a data-model violation: the method and its issues, element indexes and counts taken out;
//   - a refusal (400/500 where success was due), a missing method: the method and the status;
//   - a check of what an answer held: the method, the check's words and the shape of the
//     difference, values, ids, numbers and JSON bodies taken out.
// A failure whose call is not what its scenario is about (add_message setting up a search) is
// "blocked by" it; one that shows the same defect as another cause in a later call of its scenario
// (a relationship stored reversed, seen again in the graph) is a follow-on, "same cause as …".
import { isMethodName } from '../protocols/bridge/methods.js';
import { invisiblesIn } from '../util/words.js';
import { isFailing, type AnyReportScenario } from './model.js';

interface Cause {
  /** The method whose answer failed; undefined when none is named or several share the cause. */
  method: string | undefined;
  /** Every method whose answers show the cause (one, except for the faults of the HTTP layer). */
  methods: string[];
  /** What every scenario of the cause shares: the failure with its arguments and values taken out. */
  key: string;
  /** The first affected scenario's message, first line: a real instance of the cause. */
  example: string;
  /**
   * Set when the failing call is not the one the scenarios are about (clear_all_data before every
   * scenario, add_message setting up a search): those scenarios are blocked, not judged.
   */
  blockedBy?: string;
  /** Set on a follow-on: the cause it repeats, by its method and the words both share. */
  sameAs?: { method: string; phrase: string };
  scenarios: AnyReportScenario[];
}

/** A method name at the head of a message, with its arguments and an element index: `list_sessions()[0]`. */
function headOf(line: string): { method: string | undefined; rest: string } {
  const m = /^([a-z][a-z0-9_]*)/.exec(line);
  if (!m || !isMethodName(m[1]!)) return { method: undefined, rest: line };
  let i = m[1]!.length;
  if (line[i] === '(') {
    // Skip the balanced argument list (quoted strings may hold parentheses).
    const start = i;
    let depth = 0;
    let quoted = false;
    let closed = false;
    for (; i < line.length; i++) {
      const ch = line[i];
      if (quoted) {
        if (ch === '\\') i++;
        else if (ch === '"') quoted = false;
      } else if (ch === '"') quoted = true;
      else if (ch === '(') depth++;
      else if (ch === ')' && --depth === 0) {
        i++;
        closed = true;
        break;
      }
    }
    // An argument cut short for display ("… (126 chars)) may leave a quote open: the list ends at the first "): ".
    if (!closed) {
      const end = line.indexOf('): ', start);
      i = end < 0 ? line.length : end + 1;
    }
  }
  const rest = line.slice(i).replace(/^\[\d+\]/, '');
  return { method: m[1], rest };
}

/** JSON objects and arrays in a text (outside quoted strings) replaced by {…} and […]: their contents are values. */
function blankJson(text: string): string {
  let out = '';
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '\\') i++;
      else if (ch === '"') quoted = false;
      if (depth === 0) out += ch;
      continue;
    }
    if (ch === '"') {
      quoted = true;
      if (depth === 0) out += ch;
    } else if (ch === '{' || ch === '[') {
      if (depth++ === 0) out += ch === '{' ? '{…}' : '[…]';
    } else if ((ch === '}' || ch === ']') && depth > 0) depth--;
    else if (depth === 0) out += ch;
  }
  return out;
}

/** The shape of a message: values, ids, numbers, JSON bodies and the clause it cites taken out. */
function shapeOf(text: string): string {
  return blankJson(
    text
      .replace(/ \(and the same in \d+ more elements?\)/g, '')
      .replace(/ \(\+\d+ more\)/g, '')
      .replace(/\s*\((?:SPEC|BRIDGE|PROTO|HOSTED)-[A-Z0-9.-]+(?::[^()]*(?:\([^()]*\)[^()]*)*)?\)\s*$/, ''),
  )
    .replace(/"(?:[^"\\]|\\.)*"?/g, '"…"')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>')
    .replace(/\b[0-9a-f]{8}…/gi, '<id>')
    .replace(/\[\d+\]/g, '[]')
    .replace(/\b\d+(\.\d+)?\b/g, 'N')
    .trim();
}

/** A data-model issue line as a key: the element it is in and the values taken out. */
const issueShape = (line: string) => shapeOf(line.trim().replace(/^\[\d+\]\.?/, ''));

/** "2xx" for 201: answers of one class are one defect whatever the exact code. */
const statusClass = (status: string) => `${status[0]}xx`;

/** The name of what makes a body not JSON: as the message names it, else from the answer itself. */
function notJsonCulprit(s: AnyReportScenario, said: string): string {
  const named = /^body is not JSON (?:because of (.+?) at (?:its start|offset \d+)|\(it holds (.+?) at offset \d+\))/.exec(said);
  if (named) return (named[1] ?? named[2])!;
  const answer = s.exchanges[s.judged?.exchange ?? s.exchanges.length - 1];
  const body = answer?.responseText ?? said.replace(/^body is not JSON: /, '');
  const invisible = invisiblesIn(body.slice(0, 4096))[0];
  if (invisible !== undefined) return invisible.name;
  if (/^\s*</.test(body)) return 'markup (an HTML or XML page)';
  return 'text';
}

interface Diagnosis {
  method: string | undefined;
  /** The grouping key; a fault of the HTTP layer has no method in it (it spans methods). */
  key: string;
  example: string;
  /** The words a later call of another method may repeat (for follow-ons). */
  phrases: string[];
}

/** What a failure's message says went wrong. */
function diagnose(s: AnyReportScenario): Diagnosis {
  const lines = (s.message ?? s.outcome).split('\n');
  const { method, rest } = headOf(lines[0]!);
  const said = rest.replace(/^:\s*/, '');
  const m = method ?? '';
  const head = `${m}${rest}`;
  // The issue lines of a data-model violation belong to its shape; an exchange listing does not.
  // Nor do the trailers of a long list ("… and 3 more", "(the other 4 elements were not judged …)"): one defect, whatever the list's length.
  const details = lines.slice(1, 6).filter((l) => /^\s+\S/.test(l) && !/^\s+(… and \d+ more|\(the other \d+ elements?)/.test(l));
  const example = clipLine(rest.endsWith(':') && details[0] ? `${head} ${details[0].trim()}${details.length > 1 ? ` (+${details.length - 1} more)` : ''}` : head);
  const fault = (key: string): Diagnosis => ({ method, key: `${s.outcome}\nfault\n${key}`, example, phrases: [] });
  let f: RegExpExecArray | null;
  if ((f = /^(\d{3}) expected, got (\d{3})/.exec(said))) return fault(`status ${f[1]} → ${statusClass(f[2]!)}`);
  if ((f = /^(\d{3}) with .+? expected, got (\d{3})/.exec(said))) return fault(`status ${f[1]} → ${statusClass(f[2]!)}`);
  if ((f = /^(\d{3}) with \{"error": string\} expected, got/.exec(said))) return fault(`error body of ${f[1]}`);
  if (/^204 must have an empty body/.test(said)) return fault('a body with 204');
  if ((f = /^(.+?) expected, got (200 with an empty body|null|an array|an object|a string|a number|a boolean)/.exec(said))) return fault(`${f[1]} → ${f[2]}`);
  if (/^body is not JSON/.test(said)) return fault(`not JSON: ${notJsonCulprit(s, said)}`);
  if ((f = /^redirect (\d{3})/.exec(said))) return fault(`redirect ${f[1]}`);
  if (s.outcome === 'error' && !/response does not match the data model|expected success, got/.test(said)) {
    // Transport: no answer, a cut answer, a body too large, a reset connection.
    return fault(`transport: ${shapeOf(said).replace(/:.*$/, '')}`);
  }
  if (/^response does not match the data model:?$/.test(said)) {
    return { method, key: `${s.outcome}\nmodel\n${m}\n${details.map(issueShape).join('\n')}`, example, phrases: [] };
  }
  if (s.notImplemented || /^not implemented/.test(said)) return { method, key: `${s.outcome}\nmissing\n${m}`, example, phrases: [] };
  if ((f = /^expected success, got (\d{3})/.exec(said))) return { method, key: `${s.outcome}\nrefused\n${m}\n${f[1]}`, example, phrases: [] };
  // A check of what an answer held: its words and the shape of the difference.
  const phrases = said
    .split(/: /)
    .map((p) => p.trim())
    .filter((p) => /^[a-z][a-z ]+[a-z]$/.test(p) && p.split(' ').length >= 3 && !/^(expected|got|no such)\b/.test(p));
  return { method, key: `${s.outcome}\ncheck\n${m}\n${shapeOf(said)}\n${details.map(issueShape).join('\n')}`, example, phrases };
}

const clipLine = (text: string, max = 240) => {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 2);
  return `${text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 2 : max - 1)}…`;
};

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

/** The methods a scenario called before its last call (the one that failed). */
const calledBefore = (s: AnyReportScenario) => new Set(s.exchanges.slice(0, -1).map((e) => e.method));

/** "add_message, add_entity, start_trace and 7 more". */
function methodList(methods: readonly string[]): string {
  if (methods.length <= 3) return methods.join(', ');
  return `${methods.slice(0, 3).join(', ')} and ${methods.length - 3} more`;
}

/**
 * The failed and errored ones of a report's scenarios (every section's) grouped by cause, the
 * largest first; a follow-on comes right after the cause it repeats.
 */
export function causesOf(scenarios: readonly AnyReportScenario[]): Cause[] {
  const byKey = new Map<string, Cause & { phrases: string[] }>();
  for (const s of scenarios) {
    if (!isFailing(s.outcome)) continue;
    const d = diagnose(s);
    let c = byKey.get(d.key);
    if (!c) {
      c = { method: d.method, methods: [], key: d.key, example: d.example, phrases: d.phrases, scenarios: [] };
      byKey.set(d.key, c);
    }
    if (d.method !== undefined && !c.methods.includes(d.method)) c.methods.push(d.method);
    c.scenarios.push(s);
  }
  // Two checks of one method whose differences say the same thing in the same words ("source and
  // target swapped") are one cause, however each scenario worded what it checked.
  const order = new Map(scenarios.map((s, i) => [s, i]));
  const causes: (Cause & { phrases: string[] })[] = [];
  for (const c of byKey.values()) {
    const kind = (x: Cause) => x.key.split('\n').slice(0, 2).join('\n');
    const into = kind(c).endsWith('\ncheck') && c.method !== undefined
      ? causes.find((m) => m.method === c.method && kind(m) === kind(c) && m.phrases.some((p) => c.phrases.includes(p)))
      : undefined;
    if (into === undefined) {
      causes.push(c);
      continue;
    }
    into.phrases = into.phrases.filter((p) => c.phrases.includes(p));
    into.scenarios = [...into.scenarios, ...c.scenarios].sort((a, b) => order.get(a)! - order.get(b)!);
  }
  for (const c of causes) {
    if (c.methods.length > 1) {
      // One fault of the HTTP layer in several methods: named by them all, shown by its first instance.
      c.method = undefined;
      c.example = clipLine(`${methodList(c.methods)}: ${c.example.replace(/^[a-z_]+(\(.*?\))?(\[\d+\])?: /, '')}`);
      continue;
    }
    // Labelled when most of its scenarios are about another method (a few may be about this one).
    const blocked = c.scenarios.filter((s) => blockedBy(c.method, s) !== undefined).length;
    if (c.method !== undefined && blocked * 2 > c.scenarios.length) c.blockedBy = c.method;
  }
  causes.sort((a, b) => b.scenarios.length - a.scenarios.length);
  // Follow-ons: the same words of a difference in another method, whose scenarios all called the
  // root cause's method before they failed (the defect went in there and came out here).
  const rootOf = new Map<Cause, Cause>();
  for (const c of causes) {
    if (c.method === undefined || c.phrases.length === 0) continue;
    const root = causes.find(
      (r) => r !== c && !rootOf.has(r) && r.method !== undefined && r.method !== c.method &&
        r.phrases.some((p) => c.phrases.includes(p)) && c.scenarios.every((s) => calledBefore(s).has(r.method!)),
    );
    if (root === undefined) continue;
    rootOf.set(c, root);
    c.sameAs = { method: root.method!, phrase: root.phrases.find((p) => c.phrases.includes(p))! };
    // Whatever repeated c repeats its root.
    for (const [f, r] of rootOf) {
      if (r !== c) continue;
      rootOf.set(f, root);
      f.sameAs = c.sameAs;
    }
  }
  return causes
    .filter((c) => !rootOf.has(c))
    .flatMap((r) => [r, ...causes.filter((c) => rootOf.get(c) === r)])
    .map(({ phrases: _, ...c }) => c);
}

/** How many distinct causes a list holds: follow-ons repeat one. */
export const rootCount = (causes: readonly Cause[]): number => causes.filter((c) => c.sameAs === undefined).length;

/** "blocked by clear_all_data: clear_all_data: 204 expected, got 200 … — 202 scenarios" */
export function causeLine(c: Cause): string {
  const n = c.scenarios.length;
  const head = c.sameAs
    ? `same cause as the ${c.sameAs.method} failure (${c.sameAs.phrase}), seen in a later call: ${c.example}`
    : c.blockedBy === undefined
      ? c.example
      : c.example.startsWith(`${c.blockedBy}:`)
        ? `blocked by ${c.example}`
        : `blocked by ${c.blockedBy}: ${c.example}`;
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
