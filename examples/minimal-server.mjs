// A minimal bridge conformance server that reaches Bronze: in memory, Node.js only, no dependencies.
// Run it with `node examples/minimal-server.mjs [port]` (default: TCK_BRIDGE_PORT, else 3001), then
// `npx tck run --url http://127.0.0.1:3001 --tier bronze`. docs/writing-a-server.md explains each part.
import { randomUUID as uuid } from 'node:crypto';
import { createServer } from 'node:http';

const sessions = new Map(), entities = [], now = () => new Date().toISOString();
const refuse = (message) => { throw Object.assign(new Error(message), { status: 400 }); };
const text = (p, name) => (typeof p[name] === 'string' ? p[name] : refuse(`${name}: must be a string`));
const session = (id) => sessions.get(id) ?? sessions.set(id, { id: uuid(), session_id: id, messages: [], title: null,
  created_at: now(), updated_at: null }).get(id);
const lastN = (list, limit) => (limit == null ? list : list.slice(list.length - Math.min(limit, list.length)));

const methods = {
  setup: () => ({ ok: true, protocol_version: '0.1.0' }),
  teardown: () => undefined,
  clear_all_data: () => { sessions.clear(); entities.length = 0; },
  add_message: (p) => {
    if (!['user', 'assistant', 'system'].includes(p.role)) refuse('role: must be user, assistant or system');
    if (p.metadata != null && (typeof p.metadata !== 'object' || Array.isArray(p.metadata))) refuse('metadata: must be an object');
    const message = { id: uuid(), role: p.role, content: text(p, 'content'), timestamp: now(), embedding: null, metadata: p.metadata ?? {} };
    const s = session(text(p, 'session_id'));
    s.messages.push(message);
    s.updated_at = message.timestamp;
    return message;
  },
  get_conversation: (p) => { const s = session(text(p, 'session_id')); return { ...s, messages: lastN(s.messages, p.limit) }; },
  list_sessions: (p) => lastN([...sessions.values()].map((s) => ({ session_id: s.session_id, message_count: s.messages.length,
    created_at: s.created_at, updated_at: s.updated_at })), p.limit),
  search_messages: (p) => {
    const words = text(p, 'query').toLowerCase().split(/\W+/).filter(Boolean);
    return [...sessions.values()].filter((s) => p.session_id == null || s.session_id === p.session_id).flatMap((s) => s.messages)
      .filter((m) => words.some((w) => m.content.toLowerCase().includes(w))).slice(0, p.limit ?? 10);
  },
  delete_message: (p) => {
    const id = text(p, 'message_id');
    for (const s of sessions.values()) if (s.messages.some((m) => m.id === id)) {
      s.messages = s.messages.filter((m) => m.id !== id);
      return { deleted: true };
    }
    return { deleted: false };
  },
  clear_session: (p) => { sessions.delete(text(p, 'session_id')); },
  // Bronze also checks the shapes of the long-term records (their search and relations are Silver and Gold).
  add_entity: (p) => {
    const entity = { id: uuid(), name: text(p, 'name'), type: text(p, 'entity_type'), description: p.description ?? null, created_at: now() };
    entities.push(entity);
    return entity;
  },
  get_entity_by_name: (p) => entities.find((e) => e.name === text(p, 'name')) ?? null,
  add_preference: (p) => ({ id: uuid(), category: text(p, 'category'), preference: text(p, 'preference'), context: p.context ?? null }),
  add_fact: (p) => ({ id: uuid(), subject: text(p, 'subject'), predicate: text(p, 'predicate'), object: text(p, 'obj') }),
};

createServer((req, res) => {
  const send = (status, value) => (value === undefined ? res.writeHead(status).end()
    : res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value)));
  const name = req.url.slice(1);
  if (req.method !== 'POST' || !Object.hasOwn(methods, name)) return send(404, { error: `no method ${req.method} ${req.url}` });
  let body = '';
  req.setEncoding('utf8').on('data', (chunk) => { body += chunk; if (body.length > 16 << 20) req.destroy(); }).on('end', () => {
    try {
      const result = methods[name](JSON.parse(body || '{}') ?? {});
      send(result === undefined ? 204 : 200, result);
    } catch (err) {
      send(400, { error: err.message });
    }
  });
}).listen(Number(process.argv[2] ?? process.env.TCK_BRIDGE_PORT ?? 3001), '127.0.0.1', function () {
  console.log(`minimal conformance server listening on http://127.0.0.1:${this.address().port}`);
});
