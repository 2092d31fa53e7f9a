// Reproductions: a scenario's requests as a runnable bash script of curl calls, so a vendor can
// replay a failure against their server without the kit.
//
// Values the server handed out (ids, mostly) change from one run to the next, so they cannot be
// replayed literally: a string that first appeared in an answer (and was never sent before) and is
// sent again in a later request is captured from that answer when the script runs (with jq when
// it is installed, else with node) and spliced into the later request as JSON.
import type { Exchange } from '../profiles/bridge/index.js';
import { isFailing, type ScenarioOutcome } from './model.js';

export interface ReproSource {
  id: string;
  title: string;
  clauses: string[];
  outcome: ScenarioOutcome;
  message?: string;
  exchanges: readonly Exchange[];
}

interface Capture {
  variable: string;
  /** The jq-style path of the value in the answer, e.g. `.messages[0].id`. */
  path: string;
  /** Index of the exchange whose answer holds it. */
  from: number;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Every string leaf of a JSON value with its jq-style path, in document order. */
function stringLeaves(value: unknown, path = '', out: [string, string][] = []): [string, string][] {
  if (typeof value === 'string') out.push([path || '.', value]);
  else if (Array.isArray(value)) value.forEach((v, i) => stringLeaves(v, `${path || '.'}[${i}]`, out));
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) stringLeaves(v, IDENT.test(k) ? `${path}.${k}` : `${path || '.'}[${JSON.stringify(k)}]`, out);
  }
  return out;
}

function parseAnswer(ex: Exchange): unknown {
  if (ex.status === undefined || ex.responseText === undefined || ex.responseText === '') return undefined;
  try {
    return JSON.parse(ex.responseText);
  } catch {
    return undefined; // not JSON, or cut for display: nothing to capture from it
  }
}

/** Which answer values later requests reuse, and where to capture each from. */
function planCaptures(exchanges: readonly Exchange[]): Map<string, Capture> {
  const sent = new Set<string>();
  const offered = new Map<string, { path: string; from: number }>();
  const captures = new Map<string, Capture>();
  const counts = new Map<string, number>();
  exchanges.forEach((ex, i) => {
    for (const [, value] of stringLeaves(ex.requestBody)) {
      const source = offered.get(value);
      if (source && !sent.has(value) && !captures.has(value)) {
        const key = /(?:\.|\[")([A-Za-z0-9_]+)"?\]?$/.exec(source.path)?.[1] ?? 'value';
        const base = key.toUpperCase().replace(/[^A-Z0-9]/g, '_');
        const n = (counts.get(base) ?? 0) + 1;
        counts.set(base, n);
        captures.set(value, { variable: `${base}_${n}`, path: source.path, from: source.from });
      }
      sent.add(value);
    }
    for (const [path, value] of stringLeaves(parseAnswer(ex))) {
      if (!sent.has(value) && !offered.has(value)) offered.set(value, { path, from: i });
    }
  });
  return captures;
}

/** A shell word: single-quoted, with embedded single quotes closed and escaped. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The request body as a shell word, captured values spliced in as "$VAR" (each holds JSON). */
function bodyWord(body: Record<string, unknown>, captures: Map<string, Capture>): string {
  const marks: string[] = [];
  const json = JSON.stringify(body, (_k, v: unknown) => {
    if (typeof v === 'string' && captures.has(v)) {
      marks.push(captures.get(v)!.variable);
      return `\u0000${marks.length - 1}\u0000`;
    }
    return v;
  });
  // The marker is a whole JSON string; JSON.stringify writes NUL as \u0000.
  const parts = json.split(/"\\u0000(\d+)\\u0000"/);
  let word = '';
  parts.forEach((part, i) => {
    if (i % 2 === 0) word += part === '' ? '' : shellQuote(part);
    else word += `"$${marks[Number(part)]}"`;
  });
  return word === '' ? "''" : word;
}

function comment(text: string): string[] {
  return text.split('\n').map((l) => `# ${l}`.trimEnd());
}

// Reads a value at a jq-style path (.a[0]["b c"]) from a JSON file, as JSON: the fallback of
// `pick` when jq is not installed.
const NODE_PICK =
  'const [p,f]=process.argv.slice(1);let v=JSON.parse(require("fs").readFileSync(f,"utf8"));' +
  'for(const m of p.matchAll(/\\.([A-Za-z_][A-Za-z0-9_]*)|\\[(\\d+)\\]|\\[("(?:[^"\\\\]|\\\\.)*")\\]/g))' +
  '{v=v==null?undefined:v[m[1]??(m[2]!==undefined?Number(m[2]):JSON.parse(m[3]))];}' +
  'if(v===undefined||v===null){console.error("pick: nothing at "+p+" in the last answer");process.exit(1);}' +
  'console.log(JSON.stringify(v));';

/**
 * The reproduction script of a scenario: bash, curl, and jq or node for captured values.
 * `url` is the default target; the first argument or TCK_URL overrides it.
 */
export function reproScript(s: ReproSource, url: string): string {
  const captures = planCaptures(s.exchanges);
  const byExchange = new Map<number, Capture[]>();
  for (const c of captures.values()) byExchange.set(c.from, [...(byExchange.get(c.from) ?? []), c]);
  const headerNames = [...new Set(s.exchanges.flatMap((ex) => Object.keys(ex.requestHeaders)))];

  const lines = [
    '#!/usr/bin/env bash',
    `# Reproduces ${s.id} "${s.title}" (${s.clauses.join(', ')}) of agent-memory-tck without the kit:`,
    '# the same requests in the same order, with curl. Values the server handed out (ids) are',
    '# captured from its answers with jq (or node when jq is missing) and passed on to later calls.',
    '#',
    `#   usage: bash ${s.id}.sh [URL]      (default: $TCK_URL, else the URL of the run)`,
    '#',
    ...comment(`The kit's verdict: ${s.outcome}${s.message ? `: ${s.message}` : ''}`),
    'set -euo pipefail',
    `URL="\${1:-\${TCK_URL:-${url.replace(/["$`\\]/g, '\\$&')}}}"`,
    'URL="${URL%/}"',
    'CURL_HEADERS=()',
  ];
  if (headerNames.length) {
    lines.push('# The run sent extra headers; their values are never recorded. Set them in the environment:');
    for (const name of headerNames) {
      const v = `TCK_HEADER_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
      lines.push(`CURL_HEADERS+=(-H "${name}: \${${v}:?set ${v} to the value of the ${name} header}")`);
    }
  }
  lines.push(
    'ANSWER="$(mktemp)"',
    'trap \'rm -f "$ANSWER"\' EXIT',
    '',
    '# call METHOD JSON: posts JSON to $URL/METHOD, prints the request, the status and the answer.',
    'call() {',
    '  local status',
    '  printf \'\\n>>> POST /%s %s\\n\' "$1" "$2"',
    '  if ! status="$(curl -sS --max-time "${TCK_TIMEOUT:-30}" -o "$ANSWER" -w \'%{http_code}\' -X POST "$URL/$1" \\',
    '      -H \'content-type: application/json\' ${CURL_HEADERS[@]+"${CURL_HEADERS[@]}"} --data-binary "$2")"; then',
    '    printf \'<<< no answer\\n\'; : > "$ANSWER"; return 0',
    '  fi',
    '  printf \'<<< %s\\n\' "$status"; cat "$ANSWER"; printf \'\\n\'',
    '}',
    '# pick PATH: the value at PATH (e.g. .messages[0].id) of the last answer, as JSON.',
    'pick() {',
    '  if command -v jq >/dev/null 2>&1; then jq -ce "$1" "$ANSWER"',
    `  else node -e ${shellQuote(NODE_PICK)} "$1" "$ANSWER"; fi`,
    '}',
    '',
  );
  s.exchanges.forEach((ex, i) => {
    if (ex.status === undefined) lines.push(...comment(`the kit got no answer here: ${ex.transportError ?? 'transport failure'}`));
    lines.push(`call ${shellQuote(encodeURIComponent(ex.method))} ${bodyWord(ex.requestBody, captures)}`);
    for (const c of byExchange.get(i) ?? []) lines.push(`${c.variable}="$(pick ${shellQuote(c.path)})"`);
  });
  return `${lines.join('\n')}\n`;
}

/** Each failed or errored result with its reproduction script attached. */
export function withRepros<T extends ReproSource>(results: readonly T[], url: string): Array<T & { repro?: string }> {
  return results.map((r) => (isFailing(r.outcome) ? { ...r, repro: reproScript(r, url) } : r));
}
