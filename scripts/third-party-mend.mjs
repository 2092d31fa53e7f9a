// A measuring aid for scripts/third-party.sh --mend (not part of the kit): a bridge proxy that
// mends, in front of a third-party conformance server, the faults already decided against it in
// docs/third-party.md, so that the kit's verdicts hidden behind them can be seen and triaged.
// It changes only answers that break the bridge data model, and implements clear_all_data over the
// documented hosted REST endpoints (list, then DELETE each conversation and entity).
//
//   node scripts/third-party-mend.mjs PORT BRIDGE_URL HOSTED_V1_URL API_KEY
import http from 'node:http';
import crypto from 'node:crypto';

const [, , port, bridge, hosted, key] = process.argv;
if (!port || !bridge || !hosted || !key) {
  process.stderr.write('usage: third-party-mend.mjs PORT BRIDGE_URL HOSTED_V1_URL API_KEY\n');
  process.exit(2);
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TYPES = ['PERSON', 'ORGANIZATION', 'LOCATION', 'EVENT', 'OBJECT'];
/** A stable name-based UUID for a conversation id that is not one (cause 3). */
function uuidOf(name) {
  const h = crypto.createHash('sha1').update(`conversation:${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The mended answer: each rule below is one decided cause of docs/third-party.md. */
function mend(v) {
  if (Array.isArray(v)) return v.map(mend);
  if (v === null || typeof v !== 'object') return v;
  const o = { ...v };
  // cause 1: a Message without metadata
  if ('role' in o && 'content' in o && 'id' in o && !('metadata' in o)) o.metadata = {};
  // cause 2: entity types outside the five uppercase ones
  if ('name' in o && typeof o.type === 'string' && !TYPES.includes(o.type)) o.type = TYPES.includes(o.type.toUpperCase()) ? o.type.toUpperCase() : 'OBJECT';
  // cause 5: messages null
  if ('messages' in o && o.messages === null) o.messages = [];
  // cause 3: a conversation id that is not a UUID
  if ('session_id' in o && 'messages' in o && typeof o.id === 'string' && !UUID.test(o.id)) o.id = uuidOf(o.id);
  // cause 3 (R: created_at null; Go: the zero time): the first message's timestamp, else now
  if ('session_id' in o && Array.isArray(o.messages) && (o.created_at == null || String(o.created_at).startsWith('0001-'))) o.created_at = o.messages[0]?.timestamp ?? new Date().toISOString();
  // cause 12 (a conversation made by create_conversation answered with session_id ""): its id
  if ('session_id' in o && 'user_id' in o && o.session_id === '') o.session_id = o.id;
  for (const k of Object.keys(o)) if (k !== 'metadata' && o[k] !== null && typeof o[k] === 'object') o[k] = mend(o[k]);
  return o;
}

async function rest(method, path) {
  const r = await fetch(hosted + path, { method, headers: { authorization: `Bearer ${key}` } });
  return r.status === 204 ? null : r.json().catch(() => null);
}

/** cause 7: clear_all_data over the documented endpoints (bounded: a service that never empties is left as it is). */
async function clearAll() {
  for (let i = 0; i < 20; i++) {
    const cs = (await rest('GET', '/conversations?limit=1000'))?.conversations ?? [];
    if (cs.length === 0) break;
    for (const c of cs) await rest('DELETE', `/conversations/${encodeURIComponent(c.id)}`);
  }
  for (let i = 0; i < 20; i++) {
    const nodes = (await rest('GET', '/entities/graph'))?.nodes ?? [];
    const listed = (await rest('GET', '/entities?limit=1000'))?.entities ?? [];
    const ids = [...new Set([...nodes, ...listed].map((e) => e.id))];
    if (ids.length === 0) break;
    for (const id of ids) await rest('DELETE', `/entities/${encodeURIComponent(id)}`);
  }
}

http.createServer(async (req, res) => {
  try {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    if (req.url === '/clear_all_data') {
      await clearAll();
      res.writeHead(204).end();
      return;
    }
    const r = await fetch(bridge + req.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks) });
    const text = await r.text();
    let out = text;
    if (r.status === 200 && text.trim() !== '') {
      try {
        out = JSON.stringify(mend(JSON.parse(text)));
      } catch {
        // not JSON: passed on as it came
      }
    }
    const type = r.headers.get('content-type');
    res.writeHead(r.status, type ? { 'content-type': type } : {}).end(out);
  } catch (e) {
    res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `mend proxy: ${e.message}` }));
  }
}).listen(Number(port), '127.0.0.1');
