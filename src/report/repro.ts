// Reproductions: a failed scenario's requests as a runnable bash script of curl calls, so a vendor
// can replay it against their server without the kit. One writer for every profile: a bridge
// scenario's POSTs and a hosted scenario's REST calls alike are Exchanges.
//
// Values the target handed out (ids, keys, tokens) change from one run to the next, so they are
// not replayed literally: a string that first appeared in an answer (and was never sent before) is
// picked from that answer when the script runs (jq, else node) — as JSON where it is spliced into
// a request body, as text in a URL or a header. No header value or credential is ever written:
// the run's extra headers come from the environment, credentials from the expressions the profile
// gives (`authorization`).
//
// A script is a regression check: it checks what the failed check judged — the status each call
// answered in the run (the judged call: the statuses it should have had), and the expected value
// of a failed comparison where the script can find it in an answer — and exits 0 only once the
// server passes them, 1 while it still fails them.
import { isDeepStrictEqual } from 'node:util';
import { show } from '../engine/assert.js';
import type { Exchange } from '../engine/evidence.js';
import { isFailing, type Ending, type Outcome } from '../engine/result.js';
import { isJsonObject as isObject } from '../util/json.js';
import { cutAt } from '../util/words.js';

interface ReproSource extends Partial<Pick<Ending, 'expected' | 'actual' | 'judged'>> {
  id: string;
  title: string;
  clauses: string[];
  outcome: Outcome;
  message?: string | undefined;
  exchanges: readonly Exchange[];
}

export interface ReproTarget {
  /** The base URL the script defaults to (the bridge server's, or the hosted …/v1). */
  url: string;
  /** The environment variable that overrides it (the first argument overrides both). */
  envVar?: string;
  /** The run's server was the kit's embedded one, gone with the run: the script needs a URL (argument or envVar). */
  embedded?: boolean;
  /** What ran, for the script's header ("agent-memory-tck's hosted profile"). */
  what?: string;
  /** Lines for the header: what the reader must set before running it. */
  notes?: readonly string[];
  /** Per exchange, a shell word for its Authorization value; undefined sends none. */
  authorization?: (ex: Exchange) => string | undefined;
  /**
   * The command that judges what a script cannot, `%s` standing for the URL (default: `tck run
   * --url %s --scenario <id>`); explore's sequences are no scenario of the kit.
   */
  judgeWith?: string;
}

/** A shell word: single-quoted, with embedded single quotes closed and escaped. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Text inside a double-quoted shell word. */
const inDoubleQuotes = (text: string) => text.replace(/["$`\\]/g, '\\$&');

/** A JSON path in jq syntax: .a.b[0]["odd key"]. */
function jqPath(path: (string | number)[]): string {
  const text = path.map((p) => (typeof p === 'number' ? `[${p}]` : /^[A-Za-z_][A-Za-z0-9_]*$/.test(p) ? `.${p}` : `[${JSON.stringify(p)}]`)).join('');
  // jq reads `[0]` alone as an array constructor: a path starts with a dot.
  return text.startsWith('.') ? text : `.${text}`;
}

/** Every string leaf of a JSON value with its jq path, in document order. */
function strings(v: unknown): [string, string][] {
  return values(v).flatMap(([x, path]) => (typeof x === 'string' ? [[x, jqPath(path)] as [string, string]] : []));
}

function answerOf(ex: Exchange): unknown {
  if (ex.status === undefined || !ex.responseText) return undefined;
  try {
    return JSON.parse(ex.responseText);
  } catch {
    return undefined; // not JSON, or cut for display: nothing to pick from it
  }
}

function segmentsOf(url: string): string[] {
  try {
    return new URL(url).pathname.split('/').map((seg) => {
      try {
        return decodeURIComponent(seg);
      } catch {
        return seg;
      }
    });
  } catch {
    return [];
  }
}

type Source = [call: number, path: string];

/** Per call, the values earlier answers handed out (value -> where); what the kit sent first is not one of them. */
function offeredBefore(exchanges: readonly Exchange[]): Map<string, Source>[] {
  const offered = new Map<string, Source>();
  const sent = new Set<string>();
  return exchanges.map((ex, n) => {
    const before = new Map(offered);
    for (const v of [...segmentsOf(ex.url), ...strings(ex.requestBody).map(([value]) => value)]) if (!offered.has(v)) sent.add(v);
    for (const [v, path] of strings(answerOf(ex))) if (v.length >= 4 && v !== '***' && !sent.has(v) && !offered.has(v)) offered.set(v, [n, path]);
    return before;
  });
}

/** The URL as a double-quoted shell word: $BASE or $ORIGIN for the run's target, picked values spliced into the path. */
function urlWord(url: string, base: string, origin: string, offered: Map<string, Source>): string {
  const [prefix, rest] = url.startsWith(base) ? ['$BASE', url.slice(base.length)] : url.startsWith(origin) ? ['$ORIGIN', url.slice(origin.length)] : ['', url];
  if (prefix === '') return `"${inDoubleQuotes(rest)}"`;
  const [path = '', query] = rest.split(/\?(.*)/s);
  const spliced = path.split('/').map((seg) => {
    let decoded = seg;
    try {
      decoded = decodeURIComponent(seg);
    } catch {
      /* kept as it is */
    }
    const source = offered.get(decoded);
    return source ? `$(pick ${source[0]} ${shellQuote(source[1])})` : inDoubleQuotes(seg);
  });
  return `"${prefix}${spliced.join('/')}${query !== undefined ? `?${inDoubleQuotes(query)}` : ''}"`;
}

/** The JSON body as shell words, picked values spliced in as JSON. */
function bodyWord(body: unknown, offered: Map<string, Source>): string {
  const marks: string[] = [];
  const json = JSON.stringify(body, (_k, v: unknown) => {
    const source = typeof v === 'string' ? offered.get(v) : undefined;
    if (source === undefined) return v;
    marks.push(`"$(json ${source[0]} ${shellQuote(source[1])})"`);
    return `\u0000${marks.length - 1}\u0000`;
  });
  // A marker is a whole JSON string (quotes included); JSON.stringify writes NUL as \u0000.
  const word = json
    .split(/"\\u0000(\d+)\\u0000"/)
    .map((part, i) => (i % 2 === 0 ? (part === '' ? '' : shellQuote(part)) : marks[Number(part)]))
    .join('');
  return word === '' ? "''" : word;
}

const comment = (text: string) => text.split('\n').map((l) => `# ${l}`.trimEnd());

// `pick`/`json` without jq: the value at a jq-style path; `text` prints a string as it is.
const NODE_PICK =
  'const [mode,p,f]=process.argv.slice(1);let v=JSON.parse(require("fs").readFileSync(f,"utf8"));' +
  'for(const m of p.matchAll(/\\.([A-Za-z_][A-Za-z0-9_]*)|\\[(\\d+)\\]|\\[("(?:[^"\\\\]|\\\\.)*")\\]/g))' +
  '{v=v==null?undefined:v[m[1]??(m[2]!==undefined?Number(m[2]):JSON.parse(m[3]))];}' +
  'if(v===undefined||v===null){console.error("pick: nothing at "+p);process.exit(1);}' +
  'console.log(mode==="text"&&typeof v==="string"?v:JSON.stringify(v));';

const hasBody = (ex: Exchange) => ['POST', 'PUT', 'PATCH'].includes(ex.httpMethod ?? 'POST');

/**
 * `value` cut down to the shape of `want`: of an object only the keys `want` has, of a list of
 * `want`'s length each item so; anything else as it is. A check compares what the scenario compared
 * (a message's id, role and content), not the fields it left alone. The scripts' jq and node do the same.
 */
function project(value: unknown, want: unknown): unknown {
  if (isObject(want) && isObject(value)) return Object.fromEntries(Object.keys(want).map((k) => [k, project(value[k] ?? null, want[k])]));
  if (Array.isArray(want) && Array.isArray(value) && value.length === want.length) return value.map((v, i) => project(v, want[i]));
  return value;
}

/** Every value inside a JSON value with its path, the whole value first (pre-order: document order). */
function values(v: unknown, path: (string | number)[] = [], out: [unknown, (string | number)[]][] = []): [unknown, (string | number)[]][] {
  out.push([v, path]);
  if (Array.isArray(v)) v.forEach((x, i) => values(x, [...path, i], out));
  else if (isObject(v)) for (const [k, x] of Object.entries(v)) values(x, [...path, k], out);
  return out;
}

interface ValueCheck {
  call: number;
  path: string;
  want: unknown;
}

/**
 * The failed comparison as a check on an answer: where (the one place in the latest answer that
 * holds) the actual value is, and the expected one. Only for a comparison of values — both lists or
 * objects, or two values the message quotes as `expected X, got Y` — never for a rule in words.
 */
function valueCheck(s: ReproSource): ValueCheck | undefined {
  if (s.expected === undefined || s.actual === undefined) return undefined;
  // As the report holds them (a live result may hold undefined where JSON has nothing).
  const [expected, actual] = [JSON.parse(JSON.stringify(s.expected)) as unknown, JSON.parse(JSON.stringify(s.actual)) as unknown];
  const structured = (v: unknown) => v !== null && typeof v === 'object';
  const comparison = structured(expected) && structured(actual) && Array.isArray(expected) === Array.isArray(actual);
  if (!comparison && !(s.message ?? '').includes(`expected ${show(expected)}, got ${show(actual)}`)) return undefined;
  if (typeof expected === 'string' && / more characters cut\]$/.test(expected)) return undefined; // cut for the report
  for (let call = s.exchanges.length - 1; call >= 0; call--) {
    const answer = answerOf(s.exchanges[call]!);
    if (answer === undefined) continue;
    const at = values(answer).filter(([v]) => isDeepStrictEqual(project(v, actual), actual));
    if (at.length === 1) return { call, path: jqPath(at[0]![1]), want: expected };
    if (at.length > 1) return undefined; // found in several places: which one was judged cannot be told
  }
  return undefined;
}

// `same N PATH WANT` without jq: the value at PATH of answer N, cut to WANT's shape, printed; exit 0 when it equals WANT.
const NODE_SAME =
  'const [f,p,w]=process.argv.slice(1);let v;try{v=JSON.parse(require("fs").readFileSync(f,"utf8"));}catch{v=null;}' +
  'for(const m of p.matchAll(/\\.([A-Za-z_][A-Za-z0-9_]*)|\\[(\\d+)\\]|\\[("(?:[^"\\\\]|\\\\.)*")\\]/g))' +
  '{v=v==null?null:v[m[1]??(m[2]!==undefined?Number(m[2]):JSON.parse(m[3]))]??null;}' +
  'const o=(x)=>x!==null&&typeof x==="object"&&!Array.isArray(x);' +
  'const proj=(x,y)=>o(y)&&o(x)?Object.fromEntries(Object.keys(y).map((k)=>[k,proj(x[k]??null,y[k])])):Array.isArray(y)&&Array.isArray(x)&&x.length===y.length?x.map((e,i)=>proj(e,y[i])):x;' +
  'const sorted=(x)=>Array.isArray(x)?x.map(sorted):o(x)?Object.fromEntries(Object.keys(x).sort().map((k)=>[k,sorted(x[k])])):x;' +
  'const want=JSON.parse(w),got=JSON.stringify(sorted(proj(v,want)));console.log(JSON.stringify(proj(v,want)));' +
  'process.exit(got===JSON.stringify(sorted(want))?0:1);';

// The same in jq: `proj` cuts a value to the shape of $w.
const JQ_PROJ =
  'def proj($w): if ($w|type) == "object" and type == "object" then . as $a | reduce ($w|keys_unsorted[]) as $k ({}; .[$k] = ($a[$k] | proj($w[$k]))) ' +
  'elif ($w|type) == "array" and type == "array" and length == ($w|length) then [range(length) as $i | (.[$i] | proj($w[$i]))] else . end; ';

/** The reproduction script of a scenario: bash, curl, and jq or node for picked values. */
export function reproScript(s: ReproSource, target: ReproTarget): string {
  const envVar = target.envVar ?? 'TCK_URL';
  const base = target.url.replace(/\/+$/, '');
  let origin = base;
  try {
    origin = new URL(base).origin;
  } catch {
    /* not a URL: every request URL is literal */
  }
  const offered = offeredBefore(s.exchanges);
  const headerNames = [...new Set(s.exchanges.flatMap((ex) => Object.keys(ex.requestHeaders)))].filter((n) => target.authorization === undefined || n !== 'authorization');
  const value = valueCheck(s);
  const statuses = s.exchanges.map((ex, n) => (s.judged?.exchange === n ? s.judged.status : ex.status === undefined ? undefined : [ex.status]));
  const judgedEx = s.judged === undefined ? undefined : s.exchanges[s.judged.exchange];
  // The failed check is mirrored when the judged call's status was wrong, or its value can be checked.
  const mirrored = value !== undefined || (judgedEx !== undefined && !s.judged!.status.includes(judgedEx.status ?? -1));
  const lines = [
    '#!/usr/bin/env bash',
    `# Reproduces ${s.id} "${s.title}" (${s.clauses.join(', ')}) of ${target.what ?? 'agent-memory-tck'}`,
    '# without the kit: the same requests in the same order, with curl. Values the target handed out',
    '# (ids, keys, tokens) are picked from its answers with jq (or node when jq is missing).',
    ...(target.notes ?? []).flatMap(comment),
    '#',
    target.embedded
      ? `#   usage: bash ${s.id}.sh URL        (or set $${envVar}: the run used the kit's embedded server, gone with it)`
      : `#   usage: bash ${s.id}.sh [URL]      (default: $${envVar}, else the URL of the run)`,
    '#',
    '# A regression check: it checks the status of every call (the one the kit judged: the status it',
    '# should have had) and, where it can, the value the failed check expected. Exit status: 0 the',
    '# server passes these checks (fixed), 1 it still fails one, 2 the script cannot run (no URL, no',
    '# curl, neither jq nor node), 3 every status is as expected but the failed check is not one a',
    '# script can make (run the kit).',
    '#',
    ...comment(`The kit's verdict: ${s.outcome}${s.message ? `: ${s.message}` : ''}`),
    'set -euo pipefail',
    target.embedded ? `BASE="\${1:-\${${envVar}:-}}"` : `BASE="\${1:-\${${envVar}:-${inDoubleQuotes(base)}}}"`,
    ...(target.embedded
      ? [`[ -n "$BASE" ] || { echo "usage: bash $0 URL (or set ${envVar}): the run used the kit's embedded server, which is gone" >&2; exit 2; }`]
      : []),
    'command -v curl >/dev/null 2>&1 || { echo "this script needs curl" >&2; exit 2; }',
    'command -v jq >/dev/null 2>&1 || command -v node >/dev/null 2>&1 || { echo "this script needs jq or node to read the answers" >&2; exit 2; }',
    'BASE="${BASE%/}"',
    'HOSTPART="${BASE#*://}"',
    'ORIGIN="${BASE%%://*}://${HOSTPART%%/*}"',
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
    'ANSWERS="$(mktemp -d)"',
    'trap \'rm -rf "$ANSWERS"\' EXIT',
    'N=0',
    '',
    '# call METHOD URL AUTHORIZATION [JSON]: prints the request, the status and the answer (kept as $ANSWERS/N).',
    'call() {',
    '  local status args=(-sS --max-time "${TCK_TIMEOUT:-30}" -o "$ANSWERS/$N" -w \'%{http_code}\' -X "$1" "$2" ${CURL_HEADERS[@]+"${CURL_HEADERS[@]}"})',
    '  [ -n "$3" ] && args+=(-H "authorization: $3")',
    '  [ $# -ge 4 ] && args+=(-H \'content-type: application/json\' --data-binary "$4")',
    '  printf \'\\n>>> [%s] %s %s %s\\n\' "$N" "$1" "${2#"$ORIGIN"}" "${4:-}"',
    '  if ! status="$(curl "${args[@]}")"; then printf \'<<< no answer\\n\'; : > "$ANSWERS/$N"; status=none',
    '  else printf \'<<< %s\\n\' "$status"; cat "$ANSWERS/$N"; printf \'\\n\'; fi',
    '  printf \'%s\' "$status" > "$ANSWERS/$N.status"',
    '  N=$((N + 1))',
    '}',
    '# pick N PATH: the value at PATH (e.g. .messages[0].id) of answer N, a string as text; json N PATH: as JSON.',
    'pick() {',
    '  if command -v jq >/dev/null 2>&1; then jq -er "$2 | if type == \\"string\\" then . else tojson end" "$ANSWERS/$1"',
    `  else node -e ${shellQuote(NODE_PICK)} text "$2" "$ANSWERS/$1"; fi`,
    '}',
    'json() {',
    '  if command -v jq >/dev/null 2>&1; then jq -ce "$2" "$ANSWERS/$1"',
    `  else node -e ${shellQuote(NODE_PICK)} json "$2" "$ANSWERS/$1"; fi`,
    '}',
    'FAILED=()',
    '# status N "200 204": the status of call N is one of these.',
    'status() {',
    '  local got; got="$(cat "$ANSWERS/$1.status")"',
    '  case " $2 " in *" $got "*) ;; *) FAILED+=("call $1 answered status $got, expected ${2// / or }") ;; esac',
    '}',
    '# same N PATH WANT: the value at PATH of answer N, cut to the shape of WANT (its keys, its length), is WANT.',
    'same() {',
    '  local got',
    `  if command -v jq >/dev/null 2>&1; then got="$(jq -c --argjson want "$3" ${shellQuote(JQ_PROJ)}"($2) | proj(\\$want)" "$ANSWERS/$1" 2>/dev/null)" || got=null`,
    `    [ "$(jq -n --argjson a "$got" --argjson b "$3" '$a == $b')" = true ] && return 0`,
    `  else got="$(node -e ${shellQuote(NODE_SAME)} "$ANSWERS/$1" "$2" "$3")" && return 0; fi`,
    '  FAILED+=("answer $1 at $2 is $got, expected $3")',
    '}',
    '',
  );
  s.exchanges.forEach((ex, n) => {
    if (ex.status === undefined) lines.push(...comment(`the kit got no answer here: ${ex.transportError ?? 'transport failure'}`));
    const auth = target.authorization?.(ex);
    const words = ['call', ex.httpMethod ?? 'POST', urlWord(ex.url, base, origin, offered[n]!), auth === undefined ? "''" : auth];
    if (hasBody(ex)) words.push(bodyWord(ex.requestBody, offered[n]!));
    lines.push(words.join(' '));
    if (statuses[n] !== undefined) lines.push(`status ${n} ${shellQuote(statuses[n].join(' '))}`);
    if (value?.call === n) lines.push(`same ${n} ${shellQuote(value.path)} ${bodyWord(value.want, offered[n]!)}`);
  });
  const what = shellQuote(`${s.id}: ${cutAt((s.message ?? s.outcome).split('\n')[0]!, 200)}`);
  lines.push(
    '',
    'if [ ${#FAILED[@]} -gt 0 ]; then',
    `  printf '\\nSTILL FAILING %s\\n' ${what}`,
    "  printf '  %s\\n' \"${FAILED[@]}\"",
    '  exit 1',
    'fi',
    !isFailing(s.outcome)
      ? `printf '\\nAS IN THE RUN: every status is as when ${s.id} ${s.outcome}\\n'`
      : mirrored
        ? `printf '\\nFIXED: every check of ${s.id} passes (statuses${value ? ' and the value the failed check expected' : ''})\\n'`
        : `printf '\\nNOT JUDGED: every status is as expected, but the failed check of ${s.id} is not one this script can make; run the kit: ${(target.judgeWith ?? `npx tck run --url %s --scenario ${s.id}`).replace(/%(?!s)/g, '%%').replace(/'/g, `'\\''`)}\\n' "$BASE"`,
    mirrored || !isFailing(s.outcome) ? 'exit 0' : 'exit 3',
  );
  return `${lines.join('\n')}\n`;
}

/** Each failed or errored result with its reproduction script attached. */
export function withRepros<T extends ReproSource>(results: readonly T[], target: ReproTarget): Array<T & { repro?: string }> {
  return results.map((r) => (isFailing(r.outcome) ? { ...r, repro: reproScript(r, target) } : r));
}
