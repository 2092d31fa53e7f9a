#!/usr/bin/env python3
"""Independent BRIDGE-protocol conformance server (in-memory).

Written blind from the documents in /work/blind-docs only.
Python 3.11 standard library only.

Start:  python3 server.py [--port N]     (0 = a free port)
        port otherwise from env TCK_BRIDGE_PORT, else 3001; binds 127.0.0.1.
Faults: INDEPENDENT_FAULT=<fault-id> selects one deliberate defect (see FAULTS.md).
"""

import json
import os
import re
import sys
import threading
import uuid
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

FAULT = os.environ.get("INDEPENDENT_FAULT", "").strip()

PROTOCOL_VERSION = "0.1.0"
MAX_BODY = 1024 * 1024          # 1 MiB request bodies
MAX_LIST_LIMIT = 10 ** 9
BULK_CAP = 100                  # SPEC-5.1.4
OBS_WINDOW = 10                 # messages per observation window (silent point)
RECENT_N = 10                   # recent_messages in get_context (silent point)
WORKSPACE_ID = str(uuid.uuid5(uuid.NAMESPACE_URL, "urn:blind-bridge:workspace:default"))
NS = uuid.uuid5(uuid.NAMESPACE_URL, "urn:blind-bridge")

ROLES = ("user", "assistant", "system")
ENTITY_TYPES = ("PERSON", "ORGANIZATION", "LOCATION", "EVENT", "OBJECT")
TOOL_STATUSES = ("pending", "success", "failure", "error", "timeout", "cancelled")
FAILED_STATUSES = ("failure", "error", "timeout")

UUID_RE = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
WORD_RE = re.compile(r"\w+", re.UNICODE)
STOPWORDS = frozenset(
    "a an the and or of to in on at for with by from is are was were be been it its this that "
    "these those as into about i me my you your we our he she they them his her their do does did "
    "what which who how".split()
)


def fault(name):
    return FAULT == name


class ApiError(Exception):
    def __init__(self, message, status=400):
        super().__init__(message)
        self.message = message
        self.status = status


class _Void:
    pass


VOID = _Void()          # -> 204, no body


class Null:
    pass


NULL = Null()           # -> 200, body `null`


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------

def iso(dt):
    return dt.astimezone(timezone.utc).isoformat(timespec="microseconds")


def uuid_norm(value, name):
    if not isinstance(value, str) or not UUID_RE.match(value):
        raise ApiError(f"parameter '{name}' must be a UUID string")
    return value.lower()


def text_words(text):
    return WORD_RE.findall(text.casefold())


def similarity(query, text):
    """Deterministic lexical similarity in [0, 1] (stand-in for embeddings)."""
    q = query.casefold().strip()
    if not q:
        return 0.0
    t = text.casefold()
    if q in t:
        return 1.0
    toks = list(dict.fromkeys(WORD_RE.findall(q)))
    sig = [w for w in toks if w not in STOPWORDS] or toks
    if not sig:
        return 0.0
    words = set(WORD_RE.findall(t))
    hits = 0
    for w in sig:
        if w in words or any(x.startswith(w) for x in words):
            hits += 1
    return hits / len(sig)


def name_pattern(term):
    return re.compile(r"(?<!\w)" + re.escape(term.casefold()) + r"(?!\w)")


# ---------------------------------------------------------------------------
# parameter access
# ---------------------------------------------------------------------------

class Params:
    def __init__(self, body):
        # explicit nulls are treated as omitted (Request rule 4)
        self.d = {k: v for k, v in body.items() if v is not None}

    def has(self, name):
        return name in self.d

    def req_str(self, name, nonempty=False):
        if name not in self.d:
            raise ApiError(f"missing required parameter '{name}'")
        v = self.d[name]
        if not isinstance(v, str):
            raise ApiError(f"parameter '{name}' must be a string")
        if nonempty and v.strip() == "":
            raise ApiError(f"parameter '{name}' must not be empty")
        return v

    def opt_str(self, name, nonempty=False):
        if name not in self.d:
            return None
        return self.req_str(name, nonempty)

    def req_uuid(self, name):
        if name not in self.d:
            raise ApiError(f"missing required parameter '{name}'")
        return uuid_norm(self.d[name], name)

    def opt_int(self, name, default, minimum=0):
        if name not in self.d:
            return default
        v = self.d[name]
        if isinstance(v, bool) or not isinstance(v, int):
            raise ApiError(f"parameter '{name}' must be an integer")
        if v < minimum:
            raise ApiError(f"parameter '{name}' must be >= {minimum}")
        return min(v, MAX_LIST_LIMIT)

    def opt_num(self, name, default, lo=None, hi=None):
        if name not in self.d:
            return default
        v = self.d[name]
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ApiError(f"parameter '{name}' must be a number")
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            raise ApiError(f"parameter '{name}' must be within [{lo}, {hi}]")
        return v

    def req_num(self, name, lo=None, hi=None):
        if name not in self.d:
            raise ApiError(f"missing required parameter '{name}'")
        return self.opt_num(name, None, lo, hi)

    def opt_bool(self, name, default):
        if name not in self.d:
            return default
        v = self.d[name]
        if not isinstance(v, bool):
            raise ApiError(f"parameter '{name}' must be a boolean")
        return v

    def req_bool(self, name):
        if name not in self.d:
            raise ApiError(f"missing required parameter '{name}'")
        return self.opt_bool(name, None)

    def opt_obj(self, name):
        if name not in self.d:
            return None
        v = self.d[name]
        if not isinstance(v, dict):
            raise ApiError(f"parameter '{name}' must be a JSON object")
        return v

    def req_obj(self, name):
        if name not in self.d:
            raise ApiError(f"missing required parameter '{name}'")
        return self.opt_obj(name)

    def raw(self, name, default=None):
        return self.d.get(name, default)


def copy_json(v):
    # deep copy of a JSON value (store must not alias request objects)
    return json.loads(json.dumps(v))


# ---------------------------------------------------------------------------
# the store
# ---------------------------------------------------------------------------

class Store:
    def __init__(self):
        self.lock = threading.RLock()
        self._last = datetime.now(timezone.utc)
        self.reset()

    def reset(self):
        self.seq = 0
        self.conversations = {}     # conv id -> dict
        self.sessions = {}          # session_id -> conv id
        self.messages = {}          # msg id -> dict
        self.conv_msgs = {}         # conv id -> [msg id] (insertion order = NEXT_MESSAGE chain)
        self.entities = {}          # id -> dict
        self.relationships = {}     # id -> dict
        self.preferences = {}
        self.facts = {}
        self.traces = {}
        self.steps = {}
        self.agent_steps = {}
        self.conv_steps = {}        # conv id -> [agent step id]
        self.tool_calls = {}
        self.feedback = {}
        self.name_cache = {}        # used only by a fault
        self.page_cache = {}        # used only by a fault
        self.deleted_ids = set()    # used only by a fault
        self.context_cache = {}     # used only by a fault
        self.adjacency = {}         # used only by a fault
        self.cleared = set()        # used only by a fault (batch 2)
        self.bulk_first_md = None   # used only by a fault (batch 2)
        self.deleted_msgs = []      # used only by a fault (batch 2)

    # strictly increasing clock -> timestamps are monotone and unique
    def now(self):
        t = datetime.now(timezone.utc)
        if t <= self._last:
            t = self._last + timedelta(microseconds=1)
        self._last = t
        return t

    def next_seq(self):
        self.seq += 1
        return self.seq


STORE = Store()
NAME_CACHE = {}     # used only by a fault


# ---------------------------------------------------------------------------
# serialisers
# ---------------------------------------------------------------------------

def ser_message(m):
    out = {
        "id": m["id"],
        "role": m["role"],
        "content": m["content"],
        "timestamp": iso(m["timestamp"]),
        "embedding": None,
        "metadata": copy_json(m["metadata"]),
    }
    if fault("metadata-empty-null") and out["metadata"] == {}:
        out["metadata"] = None     # FAULT: empty metadata serialised as null
    return out


def ser_conversation(c, messages, platinum=False):
    out = {
        "id": c["id"],
        "session_id": c["session_id"],
        "messages": messages,
        "title": c["title"],
        "created_at": iso(c["created_at"]),
        "updated_at": iso(c["updated_at"]) if c["updated_at"] else None,
    }
    if platinum:
        out["user_id"] = c["user_id"]
        out["workspace_id"] = WORKSPACE_ID
        out["metadata"] = copy_json(c["metadata"])
    return out


def ser_entity(e):
    return {
        "id": e["id"],
        "name": e["name"],
        "type": e["type"],
        "subtype": None,
        "description": e["description"],
        "embedding": None,
        "canonical_name": e["canonical_name"],
        "created_at": iso(e["created_at"]),
    }


def ser_relationship(r):
    return {
        "id": r["id"],
        "source_id": r["source_id"],
        "target_id": r["target_id"],
        "relationship_type": r["type"],
        "properties": copy_json(r["properties"]),
    }


def ser_tool_call(tc):
    out = {
        "id": tc["id"],
        "tool_name": tc["tool_name"],
        "arguments": copy_json(tc["arguments"]),
        "result": copy_json(tc["result"]),
        "status": tc["status"],
        "duration_ms": tc["duration_ms"],
        "error": tc["error"],
    }
    if fault("tool-call-duration-float") and out["duration_ms"] is not None:
        out["duration_ms"] = float(out["duration_ms"])      # FAULT: stored as a double
    if fault("tool-call-arguments-stringified"):
        out["arguments"] = json.dumps(out["arguments"])     # FAULT: the JSON string is not decoded
    return out


def ser_step(s):
    return {
        "id": s["id"],
        "trace_id": s["trace_id"],
        "step_number": s["step_number"],
        "thought": s["thought"],
        "action": s["action"],
        "observation": s["observation"],
        "tool_calls": [ser_tool_call(STORE.tool_calls[t]) for t in s["tool_calls"]],
    }


def ser_trace(t):
    steps = [ser_step(STORE.steps[s]) for s in t["steps"]]
    return {
        "id": t["id"],
        "session_id": t["session_id"],
        "task": t["task"],
        "steps": steps,
        "outcome": t["outcome"],
        "success": t["success"],
        "started_at": iso(t["started_at"]),
        "completed_at": iso(t["completed_at"]) if t["completed_at"] else None,
    }


def ser_agent_step(s):
    return {
        "id": s["id"],
        "conversation_id": s["conversation_id"],
        "reasoning": s["reasoning"],
        "action_taken": s["action_taken"],
        "result": s["result"],
        "created_at": iso(s["created_at"]),
    }


# ---------------------------------------------------------------------------
# internal queries
# ---------------------------------------------------------------------------

def conv_messages(conv_id):
    return [STORE.messages[i] for i in STORE.conv_msgs.get(conv_id, [])]


def get_or_create_session(session_id):
    cid = STORE.sessions.get(session_id)
    if cid is not None:
        return STORE.conversations[cid]
    c = {
        # stable per session: the same session always yields the same id,
        # also for get_conversation before the session exists (silent point)
        "id": str(uuid.uuid5(NS, "session:" + session_id)),
        "session_id": session_id,
        "title": None,
        "created_at": STORE.now(),
        "updated_at": None,
        "user_id": None,
        "metadata": {},
        "seq": STORE.next_seq(),
    }
    if c["id"] in STORE.conversations:
        # an id collision with a conversation created by create_conversation
        c["id"] = str(uuid.uuid4())
    STORE.conversations[c["id"]] = c
    STORE.conv_msgs[c["id"]] = []
    if fault("clear-session-orphans-new-messages") and session_id in STORE.cleared:
        return c    # FAULT2: a stale "cleared" flag: the new conversation is never linked to the session
    STORE.sessions[session_id] = c["id"]
    return c


def store_message(conv, role, content, metadata):
    m = {
        "id": str(uuid.uuid4()),
        "conv_id": conv["id"],
        "role": role,
        "content": content,
        "timestamp": STORE.now(),
        "metadata": copy_json(metadata) if metadata is not None else {},
        "seq": STORE.next_seq(),
    }
    if fault("metadata-nested-flattened"):
        # FAULT2: a flat property map: nested values are stored as JSON text
        m["metadata"] = {k: (json.dumps(v) if isinstance(v, (dict, list)) else v) for k, v in m["metadata"].items()}
    if fault("bulk-metadata-first-item") and STORE.bulk_first_md is not None:
        m["metadata"] = copy_json(STORE.bulk_first_md)     # FAULT2: the first item's metadata reused
    STORE.messages[m["id"]] = m
    STORE.conv_msgs[conv["id"]].append(m["id"])
    conv["updated_at"] = m["timestamp"]
    conv["added"] = conv.get("added", 0) + 1
    STORE.page_cache.pop(conv["session_id"], None)     # the page cache is read only under a fault
    return m


def remove_conversation(cid):
    c = STORE.conversations.pop(cid, None)
    if c is None:
        return
    if STORE.sessions.get(c["session_id"]) == cid:
        del STORE.sessions[c["session_id"]]
    STORE.page_cache.pop(c["session_id"], None)
    for mid in STORE.conv_msgs.pop(cid, []):
        STORE.messages.pop(mid, None)
    for sid in STORE.conv_steps.pop(cid, []):
        s = STORE.agent_steps.pop(sid, None)
        if s:
            for tid in s["tool_calls"]:
                STORE.tool_calls.pop(tid, None)


def entity_terms(e):
    terms = [e["name"]] + list(e["aliases"])
    if e["canonical_name"]:
        terms.append(e["canonical_name"])
    # entities linked to this one by SAME_AS (merge_entities) are the same thing
    for r in STORE.relationships.values():
        if r["type"] == "SAME_AS" and r["target_id"] == e["id"]:
            src = STORE.entities.get(r["source_id"])
            if src:
                terms.append(src["name"])
                terms.extend(src["aliases"])
    out = []
    for t in terms:
        if t and t.strip() and t not in out:
            out.append(t)
    return out


def text_mentions(e, text):
    t = text.casefold()
    return any(name_pattern(term).search(t) for term in entity_terms(e))


def agent_step_text(s):
    return " ".join(x for x in (s["reasoning"], s["action_taken"], s["result"] or "") if x)


def influenced_entities(s):
    text = agent_step_text(s)
    return [e for e in sorted(STORE.entities.values(), key=lambda x: x["seq"]) if text_mentions(e, text)]


def observations_for(conv_id):
    msgs = conv_messages(conv_id)
    out = []
    for i in range(len(msgs) // OBS_WINDOW):
        win = msgs[i * OBS_WINDOW:(i + 1) * OBS_WINDOW]
        counts = {r: sum(1 for m in win if m["role"] == r) for r in ROLES}
        first = win[0]["content"]
        if len(first) > 60:
            first = first[:60] + "..."
        out.append({
            "id": str(uuid.uuid5(NS, f"obs:{conv_id}:{win[0]['id']}:{win[-1]['id']}")),
            "conversation_id": conv_id,
            "content": (f"Messages {i * OBS_WINDOW + 1}-{(i + 1) * OBS_WINDOW}: "
                        f"{counts['user']} user, {counts['assistant']} assistant, {counts['system']} system; "
                        f"opens with: {first}"),
            "window_start": iso(win[0]["timestamp"]),
            "window_end": iso(win[-1]["timestamp"]),
            "created_at": iso(win[-1]["timestamp"]),
        })
    return out


def reflections_for(conv_id):
    obs = observations_for(conv_id)
    if len(obs) < 2:
        return []
    last = obs[-1]
    return [{
        "id": str(uuid.uuid5(NS, f"refl:{conv_id}:{last['id']}")),
        "conversation_id": conv_id,
        "content": f"Reflection over {len(obs)} observations covering {len(obs) * OBS_WINDOW} messages.",
        "created_at": last["created_at"],
    }]


def find_step_for_tool_call(step_id):
    if step_id in STORE.steps:
        return STORE.steps[step_id]
    if step_id in STORE.agent_steps:
        return STORE.agent_steps[step_id]
    return None


def delete_entity_internal(eid):
    STORE.entities.pop(eid, None)
    STORE.feedback.pop(eid, None)
    for rid in [r["id"] for r in STORE.relationships.values() if eid in (r["source_id"], r["target_id"])]:
        del STORE.relationships[rid]


# ---------------------------------------------------------------------------
# methods: lifecycle
# ---------------------------------------------------------------------------

def m_setup(p):
    return {"ok": True, "protocol_version": PROTOCOL_VERSION}


def m_teardown(p):
    return VOID


def m_clear_all_data(p):
    if fault("clear-all-keeps-entities"):
        # FAULT: the knowledge graph survives the wipe
        ents, rels = STORE.entities, STORE.relationships
        STORE.reset()
        STORE.entities, STORE.relationships = ents, rels
        return VOID
    STORE.reset()
    return VOID


# ---------------------------------------------------------------------------
# methods: short-term memory (Bronze)
# ---------------------------------------------------------------------------

def parse_role(p, name="role"):
    role = p.req_str(name)
    if fault("role-not-validated"):
        return role     # FAULT: any string is accepted as a role
    if role not in ROLES:
        raise ApiError(f"parameter '{name}' must be one of: {', '.join(ROLES)}")
    return role


def fault_content(content):
    if fault("content-strip"):
        content = content.strip()                       # FAULT: trims whitespace / newlines / tabs
    if fault("content-astral-dropped"):
        # FAULT: a 3-byte UTF-8 store: characters beyond the BMP (emoji) are replaced
        content = "".join(ch if ord(ch) <= 0xFFFF else "\ufffd" for ch in content)
    if fault("content-nul-terminated"):
        content = content.split("\x00", 1)[0]           # FAULT: C-string handling cuts at NUL
    if fault("content-utf8-64k-truncate"):
        # FAULT: a 65535-byte column; cut at a character boundary
        b = content.encode("utf-8", "surrogatepass")
        if len(b) > 65535:
            content = b[:65535].decode("utf-8", "ignore")
    return content


def m_add_message(p):
    session_id = p.req_str("session_id", nonempty=True)
    role = parse_role(p)
    content = p.req_str("content")
    metadata = p.opt_obj("metadata")
    content = fault_content(content)
    if fault("content-crlf-normalized"):
        content = content.replace("\r\n", "\n")      # FAULT2: text-mode newline translation
    if fault("empty-content-rejected") and content == "":
        raise ApiError("parameter 'content' must not be empty")     # FAULT2: empty content refused
    if fault("system-role-stored-as-user") and role == "system":
        role = "user"       # FAULT2: a two-role store maps system onto user
    conv = get_or_create_session(session_id)
    m = store_message(conv, role, content, metadata)
    return ser_message(m)


def m_add_message_unlocked(p):
    """FAULT2 add-message-lost-update: the NEXT_MESSAGE chain is extended by a read-modify-write
    whose read and write are two separate locked steps (two round trips), not one transaction."""
    import time
    session_id = p.req_str("session_id", nonempty=True)
    role = parse_role(p)
    content = p.req_str("content")
    metadata = p.opt_obj("metadata")
    with STORE.lock:
        conv = get_or_create_session(session_id)
        snapshot = list(STORE.conv_msgs[conv["id"]])
    time.sleep(0.3)
    with STORE.lock:
        m = store_message(conv, role, content, metadata)
        STORE.conv_msgs[conv["id"]] = snapshot + [m["id"]]
        return ser_message(m)


def m_get_conversation(p):
    session_id = p.req_str("session_id", nonempty=True)
    limit = p.opt_int("limit", None, 0)
    cid = STORE.sessions.get(session_id)
    if cid is None:
        if fault("conversation-missing-null"):
            return NULL     # FAULT: unknown session answers null, not an empty conversation
        c = {
            "id": str(uuid.uuid5(NS, "session:" + session_id)),
            "session_id": session_id,
            "title": None,
            "created_at": STORE.now(),
            "updated_at": None,
        }
        return ser_conversation(c, [])
    c = STORE.conversations[cid]
    if fault("conversation-id-casefold-collision") and c["session_id"] != c["id"]:
        # FAULT2: the conversation id is derived from the case-folded session id
        c = dict(c, id=str(uuid.uuid5(NS, "session:" + session_id.casefold())))
    if limit is not None and fault("delete-message-limit-cache"):
        # FAULT: the last page is cached per (session, limit); delete_message does not invalidate it
        cached = STORE.page_cache.get(session_id, {}).get(limit)
        if cached is not None:
            return ser_conversation(c, copy_json(cached))
    msgs = conv_messages(cid)
    if limit is not None:
        if fault("conversation-limit-plus-one") and 0 < limit < len(msgs):
            limit += 1      # FAULT: `<=` instead of `<` in the page loop
        if fault("conversation-limit-zero-all") and limit == 0:
            limit = None        # FAULT2: `if limit:` treats 0 as "no limit"
        else:
            msgs = msgs[max(0, len(msgs) - limit):] if limit else []
    out = [ser_message(m) for m in msgs]
    if limit is not None and fault("delete-message-limit-cache"):
        STORE.page_cache.setdefault(session_id, {})[limit] = copy_json(out)
    return ser_conversation(c, out)


def m_search_messages(p):
    query = p.req_str("query")
    session_id = p.opt_str("session_id")
    limit = p.opt_int("limit", 10, 0)
    threshold = p.opt_num("threshold", 0.7, 0.0, 1.0)
    candidates = sorted(STORE.messages.values(), key=lambda x: x["seq"])
    if fault("search-limit-before-filter"):
        candidates = candidates[:limit]     # FAULT: LIMIT applied to the candidates, before scoring
    scored = []
    if fault("search-all-sessions-latest-only") and session_id is None and candidates:
        # FAULT2: no session given -> the "current" session (of the newest message) is searched
        candidates = [m for m in candidates if m["conv_id"] == candidates[-1]["conv_id"]]
    for m in candidates:
        if session_id is not None:
            conv = STORE.conversations.get(m["conv_id"])
            sid = conv["session_id"] if conv else ""
            if fault("search-session-prefix-match"):
                if not sid.startswith(session_id):      # FAULT: LIKE 'sid%'
                    continue
            elif sid != session_id:
                continue
        s = similarity(query, m["content"])
        if fault("search-threshold-ignored"):
            threshold = 0.0     # FAULT2: the threshold parameter is never passed down
        if s > 0 and s >= threshold:
            scored.append((-s, m["seq"], m))
    scored.sort(key=lambda x: (x[0], x[1]))
    return [ser_message(x[2]) for x in scored[:limit]]


def session_info(c):
    count = len(STORE.conv_msgs.get(c["id"], []))
    if fault("session-count-stale"):
        count = c.get("added", count)   # FAULT: a counter bumped on add, never decremented
    return {
        "session_id": c["session_id"],
        "message_count": count,
        "created_at": iso(c["created_at"]),
        "updated_at": iso(c["updated_at"]) if c["updated_at"] else None,
    }


def m_list_sessions(p):
    limit = p.opt_int("limit", 100, 0)
    convs = sorted(STORE.conversations.values(), key=lambda c: -c["seq"])
    out = [session_info(c) for c in convs]
    if fault("list-sessions-limit-ignored"):
        return out      # FAULT2: the limit is not passed to the query
    return out[:limit]


def m_delete_message(p):
    mid = p.req_uuid("message_id")
    m = STORE.messages.get(mid)
    if m is None:
        if fault("delete-twice-true") and mid in STORE.deleted_ids:
            return {"deleted": True}    # FAULT: "was ever known" instead of "was deleted now"
        return {"deleted": False}
    conv = STORE.conversations[m["conv_id"]]
    del STORE.messages[mid]
    STORE.deleted_ids.add(mid)
    if fault("history-includes-deleted-messages"):
        STORE.deleted_msgs.append(m)    # FAULT2: the mention index keeps deleted messages
    ids = STORE.conv_msgs[m["conv_id"]]
    idx = ids.index(mid)
    ids.remove(mid)
    if fault("delete-first-resets-head") and idx == 0 and len(ids) >= 2:
        # FAULT2: FIRST_MESSAGE re-pointed at the tail instead of the old head's successor
        del ids[:-1]
    if fault("delete-middle-chain-misordered") and 0 < idx < len(ids):
        # FAULT: chain repair re-attaches the successor at the tail
        ids.append(ids.pop(idx))
    conv["updated_at"] = STORE.now()
    return {"deleted": True}


def m_clear_session(p):
    session_id = p.req_str("session_id")
    targets = [session_id]
    if fault("clear-session-case-insensitive"):
        # FAULT: session ids compared case-insensitively
        targets = [s for s in STORE.sessions if s.casefold() == session_id.casefold()] or [session_id]
    for sess in targets:
        cid = STORE.sessions.get(sess)
        if cid is not None and fault("clear-session-deletes-mentioned-entities"):
            # FAULT2: entities mentioned in the session's messages are deleted with them
            for e in list(STORE.entities.values()):
                if any(text_mentions(e, m["content"]) for m in conv_messages(cid)):
                    delete_entity_internal(e["id"])
        if cid is not None and fault("clear-session-search-index-stale"):
            # FAULT2: the conversation goes, the message records (search index) stay
            STORE.conversations.pop(cid, None)
            STORE.sessions.pop(sess, None)
            STORE.conv_msgs.pop(cid, None)
        elif cid is not None:
            remove_conversation(cid)
        if fault("clear-session-orphans-new-messages"):
            STORE.cleared.add(sess)
        # all data of the session: reasoning traces started in it too
        for tid in [t["id"] for t in STORE.traces.values() if t["session_id"] == sess]:
            t = STORE.traces.pop(tid)
            for sid in t["steps"]:
                st = STORE.steps.pop(sid, None)
                if st:
                    for tcid in st["tool_calls"]:
                        STORE.tool_calls.pop(tcid, None)
    return VOID


# ---------------------------------------------------------------------------
# methods: long-term memory (Silver)
# ---------------------------------------------------------------------------

def parse_entity_type(p, name):
    t = p.req_str(name)
    if t not in ENTITY_TYPES:
        raise ApiError(f"parameter '{name}' must be one of: {', '.join(ENTITY_TYPES)}")
    return t


def m_add_entity(p):
    name = p.req_str("name", nonempty=True)
    etype = parse_entity_type(p, "entity_type")
    description = p.opt_str("description")
    if fault("entity-description-varchar255") and description is not None:
        description = description[:255]    # FAULT2: a VARCHAR(255) column
    if fault("entity-name-latin1"):
        # FAULT: a Latin-1 column: characters beyond U+00FF become '?'
        name = "".join(ch if ord(ch) <= 0xFF else "?" for ch in name)
    if fault("entity-type-lowercased"):
        etype = etype.lower()   # FAULT: labels normalised to lower case
    # "Create or update": the same (name, type) is the same entity
    for e in sorted(STORE.entities.values(), key=lambda x: x["seq"]):
        if e["name"] == name and (e["type"] == etype or fault("entity-merge-on-name-only")):  # FAULT2: MERGE on name
            if description is not None:
                e["description"] = description
            return ser_entity(e)
    e = {
        "id": str(uuid.uuid4()),
        "name": name,
        "type": etype,
        "description": description,
        "canonical_name": None,
        "aliases": [],
        "created_at": STORE.now(),
        "seq": STORE.next_seq(),
    }
    STORE.entities[e["id"]] = e
    return ser_entity(e)


def m_add_preference(p):
    category = p.req_str("category", nonempty=True)
    preference = p.req_str("preference")
    context = p.opt_str("context")
    if fault("preference-upsert-by-category"):
        # FAULT2: MERGE (p:Preference {category}) -> one preference per category
        for old in list(STORE.preferences.values()):
            if old["category"] == category:
                del STORE.preferences[old["id"]]
    pr = {
        "id": str(uuid.uuid4()),
        "category": category,
        "preference": preference,
        "context": None if fault("preference-context-lost") else context,   # FAULT: context not persisted
        "seq": STORE.next_seq(),
    }
    STORE.preferences[pr["id"]] = pr
    return {"id": pr["id"], "category": category, "preference": preference,
            "context": context, "embedding": None}


def m_add_fact(p):
    subject = p.req_str("subject")
    predicate = p.req_str("predicate")
    if fault("fact-predicate-as-rel-type"):
        predicate = re.sub(r"\s+", "_", predicate.strip()).upper()     # FAULT2: stored as a relationship type
    obj = p.req_str("obj")
    f = {"id": str(uuid.uuid4()), "subject": subject, "predicate": predicate, "object": obj,
         "seq": STORE.next_seq()}
    STORE.facts[f["id"]] = f
    if fault("fact-object-field-name"):
        # FAULT: the parameter name leaks into the answer
        return {"id": f["id"], "subject": subject, "predicate": predicate, "obj": obj, "embedding": None}
    return {"id": f["id"], "subject": subject, "predicate": predicate, "object": obj, "embedding": None}


def m_search_entities(p):
    query = p.req_str("query")
    limit = p.opt_int("limit", 10, 0)
    scored = []
    for e in sorted(STORE.entities.values(), key=lambda x: x["seq"]):
        text = e["name"] + " " + (e["description"] or "")
        if e["canonical_name"]:
            text += " " + e["canonical_name"]
        s = similarity(query, text)
        if s > 0:
            scored.append((-s, e["seq"], e))
    scored.sort(key=lambda x: (x[0], x[1]))
    if fault("search-entities-limit-zero-default"):
        limit = limit or 10     # FAULT2: `limit or default`
    if fault("search-entities-limit-plus-one"):
        limit = limit + 1       # FAULT: off by one
    return [ser_entity(x[2]) for x in scored[:limit]]


def m_search_preferences(p):
    query = p.req_str("query")
    category = p.opt_str("category")
    limit = p.opt_int("limit", 10, 0)
    scored = []
    cands = sorted(STORE.preferences.values(), key=lambda x: x["seq"])
    if fault("search-preferences-limit-before-category"):
        cands = cands[:limit]   # FAULT2: LIMIT applied before the category filter
    for pr in cands:
        if category is not None and pr["category"] != category:
            continue
        text = " ".join(x for x in (pr["category"], pr["preference"], pr["context"] or "") if x)
        s = similarity(query, text)
        if s > 0:
            scored.append((-s, pr["seq"], pr))
    scored.sort(key=lambda x: (x[0], x[1]))
    return [{"id": x[2]["id"], "category": x[2]["category"], "preference": x[2]["preference"],
             "context": x[2]["context"], "embedding": None} for x in scored[:limit]]


def m_get_entity_by_name(p):
    name = p.req_str("name")
    if fault("entity-by-name-stale-cache") and name in NAME_CACHE:
        # FAULT: a lookup cache that no write (update, delete, merge, clear) invalidates
        return copy_json(NAME_CACHE[name])
    for e in sorted(STORE.entities.values(), key=lambda x: x["seq"]):
        hit = e["name"] == name
        if fault("entity-by-name-case-insensitive"):
            hit = e["name"].casefold() == name.casefold()   # FAULT: not an exact match
        if hit:
            out = ser_entity(e)
            if fault("entity-by-name-stale-cache"):
                NAME_CACHE[name] = copy_json(out)
            return out
    return NULL


def related_ids(entity_id, rel_type, depth):
    seen = {entity_id}
    order = []
    frontier = [entity_id]
    rels = list(STORE.relationships.values())
    if fault("related-adjacency-cache-stale"):
        # FAULT: traversal reads an adjacency index that merges and deletes never update
        nodes = {}
        for node, lst in STORE.adjacency.items():
            for rid, other, typ in lst:
                nodes.setdefault(rid, {"source_id": node, "target_id": other, "type": typ})
        rels = list(nodes.values())
    for _ in range(depth):
        nxt = []
        for node in frontier:
            for r in rels:
                if rel_type is not None and r["type"] != rel_type and not fault("related-entities-type-filter-ignored"):
                    continue
                if fault("related-entities-reversed-direction") and r["source_id"] == node:
                    continue    # FAULT2: only incoming relationships are followed
                if r["source_id"] == node:
                    other = r["target_id"]
                elif r["target_id"] == node:
                    other = r["source_id"]
                else:
                    continue
                if other not in seen and other in STORE.entities:
                    seen.add(other)
                    order.append(other)
                    nxt.append(other)
        frontier = nxt
        if not frontier:
            break
    return order


def m_get_related_entities(p):
    entity_id = p.req_uuid("entity_id")
    rel_type = p.opt_str("relationship_type")
    depth = p.opt_int("depth", 1, 1)
    depth = min(depth, 64)
    if entity_id not in STORE.entities:
        return []
    return [ser_entity(STORE.entities[i]) for i in related_ids(entity_id, rel_type, depth)]


# ---------------------------------------------------------------------------
# methods: reasoning memory (Silver)
# ---------------------------------------------------------------------------

def m_start_trace(p):
    session_id = p.req_str("session_id", nonempty=True)
    task = p.req_str("task")
    t = {
        "id": str(uuid.uuid4()),
        "session_id": session_id,
        "task": task,
        "steps": [],
        "outcome": None,
        "success": None,
        "started_at": STORE.now(),
        "completed_at": None,
        "step_counter": 0,
        "seq": STORE.next_seq(),
    }
    STORE.traces[t["id"]] = t
    return ser_trace(t)


def m_add_step(p):
    trace_id = p.req_uuid("trace_id")
    thought = p.opt_str("thought")
    action = p.opt_str("action")
    observation = p.opt_str("observation")
    t = STORE.traces.get(trace_id)
    if t is None:
        raise ApiError(f"trace not found: {trace_id}")
    t["step_counter"] += 1
    number = t["step_counter"]
    if fault("step-number-count-thoughts"):
        # FAULT: count(s.thought) skips steps whose thought is null
        number = sum(1 for sid in t["steps"] if STORE.steps[sid]["thought"] is not None) + 1
    s = {
        "id": str(uuid.uuid4()),
        "trace_id": trace_id,
        "step_number": number,
        "thought": thought,
        "action": action,
        "observation": observation,
        "tool_calls": [],
    }
    STORE.steps[s["id"]] = s
    t["steps"].append(s["id"])
    return ser_step(s)


def m_record_tool_call(p):
    step_id = p.req_uuid("step_id")
    tool_name = p.req_str("tool_name", nonempty=True)
    arguments = p.req_obj("arguments")
    result = p.raw("result")
    if fault("tool-call-falsy-result-null"):
        result = result or None     # FAULT2: falsy results (0, false, "", [], {}) become null
    status = p.opt_str("status") or "success"
    if status not in TOOL_STATUSES:
        raise ApiError(f"parameter 'status' must be one of: {', '.join(TOOL_STATUSES)}")
    duration_ms = p.opt_int("duration_ms", None, 0)
    error = p.opt_str("error")
    s = find_step_for_tool_call(step_id)
    if s is None:
        raise ApiError(f"step not found: {step_id}")
    tc = {
        "id": str(uuid.uuid4()),
        "step_id": step_id,
        "tool_name": tool_name,
        "arguments": copy_json(arguments),
        "result": copy_json(result),
        "status": status,
        "duration_ms": duration_ms,
        "error": error,
        "seq": STORE.next_seq(),
    }
    STORE.tool_calls[tc["id"]] = tc
    s["tool_calls"].append(tc["id"])
    return ser_tool_call(tc)


def m_complete_trace(p):
    trace_id = p.req_uuid("trace_id")
    outcome = p.opt_str("outcome")
    success = p.opt_bool("success", None)
    t = STORE.traces.get(trace_id)
    if t is None:
        raise ApiError(f"trace not found: {trace_id}")
    t["outcome"] = outcome
    t["success"] = success
    if fault("complete-trace-success-coerced") and success is None:
        t["success"] = False        # FAULT: bool(None)
    if not fault("complete-trace-no-completed-at"):     # FAULT: completed_at never set
        t["completed_at"] = STORE.now()
    return ser_trace(t)


def m_get_trace_with_steps(p):
    trace_id = p.req_uuid("trace_id")
    t = STORE.traces.get(trace_id)
    if t is None:
        return NULL
    out = ser_trace(t)
    if fault("trace-steps-string-sort"):
        out["steps"].sort(key=lambda s: str(s["step_number"]))     # FAULT2: ORDER BY a string
    if fault("trace-tool-calls-last-step-only"):
        # FAULT: the tool-call join keeps only the last step's calls
        for s in out["steps"][:-1]:
            s["tool_calls"] = []
    return out


def m_list_traces(p):
    session_id = p.opt_str("session_id")
    limit = p.opt_int("limit", 100, 0)
    ts = sorted(STORE.traces.values(), key=lambda t: -t["seq"])
    if fault("list-traces-limit-before-filter"):
        ts = ts[:limit]     # FAULT: LIMIT before the session filter
    if session_id is not None:
        if fault("list-traces-session-casefold"):
            ts = [t for t in ts if t["session_id"].casefold() == session_id.casefold()]  # FAULT2: collation
        else:
            ts = [t for t in ts if t["session_id"] == session_id]
    out = [ser_trace(t) for t in ts[:limit]]
    if fault("list-traces-steps-not-joined"):
        for t in out:
            t["steps"] = []     # FAULT2: the list query does not join the steps
    return out


def m_get_tool_stats(p):
    tool_name = p.opt_str("tool_name")
    groups = {}
    for tc in sorted(STORE.tool_calls.values(), key=lambda x: x["seq"]):
        if tool_name is not None and tc["tool_name"] != tool_name:
            continue
        key = tc["tool_name"]
        if fault("tool-stats-group-casefold"):
            # FAULT2: grouped under a case-folded key (a case-insensitive collation)
            key = next((k for k in groups if k.casefold() == key.casefold()), key)
        groups.setdefault(key, []).append(tc)
    out = []
    for name in sorted(groups):
        calls = groups[name]
        total = len(calls)
        ok = sum(1 for c in calls if c["status"] == "success")
        failed = sum(1 for c in calls if c["status"] in FAILED_STATUSES)
        durs = [c["duration_ms"] for c in calls if c["duration_ms"] is not None]
        avg = (sum(durs) / len(durs)) if durs else None
        if fault("tool-stats-avg-null-as-zero") and durs:
            avg = sum(durs) / total     # FAULT2: calls without a duration count as 0 ms
        rate = (ok / total) if total else 0.0
        if fault("tool-stats-success-rate-percent"):
            rate = round(rate * 100, 1)     # FAULT: a percentage, not a ratio
        out.append({
            "name": name,
            "total_calls": total,
            "successful_calls": ok,
            "failed_calls": failed,
            "success_rate": rate,
            "avg_duration_ms": float(avg) if avg is not None else None,
        })
    return out


# ---------------------------------------------------------------------------
# methods: Gold
# ---------------------------------------------------------------------------

def m_add_relationship(p):
    source_id = p.req_uuid("source_id")
    target_id = p.req_uuid("target_id")
    rel_type = p.req_str("relationship_type", nonempty=True)
    properties = p.opt_obj("properties")
    if source_id not in STORE.entities:
        raise ApiError(f"source entity not found: {source_id}")
    if target_id not in STORE.entities:
        raise ApiError(f"target entity not found: {target_id}")
    if fault("relationship-dedup-by-pair"):
        # FAULT: MERGE on (source, target) ignores the relationship type
        for r in STORE.relationships.values():
            if r["source_id"] == source_id and r["target_id"] == target_id:
                return ser_relationship(r)
    rid = str(uuid.uuid4())
    if fault("relationship-id-not-uuid"):
        # FAULT: the database element id is returned instead of a UUID
        rid = f"5:{uuid.uuid5(NS, rid).hex}:{len(STORE.relationships)}"
    r = {
        "id": rid,
        "source_id": source_id,
        "target_id": target_id,
        "type": rel_type,
        "properties": copy_json(properties) if properties is not None else {},
    }
    STORE.relationships[r["id"]] = r
    # adjacency index, read only under a fault
    STORE.adjacency.setdefault(source_id, []).append((r["id"], target_id, rel_type))
    STORE.adjacency.setdefault(target_id, []).append((r["id"], source_id, rel_type))
    return ser_relationship(r)


def repoint_relationships(source_id, target_id, keep_same_as=True):
    for rid in list(STORE.relationships):
        r = STORE.relationships[rid]
        if keep_same_as and r["type"] == "SAME_AS":
            continue
        touched = source_id in (r["source_id"], r["target_id"])
        if fault("merge-relationship-direction-flipped") and r["target_id"] == source_id and r["source_id"] != source_id:
            # FAULT2: re-created as an outgoing edge of the target
            r["source_id"], r["target_id"] = target_id, r["source_id"]
            continue
        if r["source_id"] == source_id:
            r["source_id"] = target_id
        if r["target_id"] == source_id:
            r["target_id"] = target_id
        # Only a loop this merge made goes (source <-> target); an existing self-loop elsewhere stays.
        if touched and r["source_id"] == r["target_id"]:
            del STORE.relationships[rid]


def m_merge_duplicate_entities(p):
    source_id = p.req_uuid("source_id")
    target_id = p.req_uuid("target_id")
    canonical_name = p.opt_str("canonical_name", nonempty=True)
    if source_id == target_id:
        raise ApiError("source_id and target_id must differ")
    src = STORE.entities.get(source_id)
    tgt = STORE.entities.get(target_id)
    if src is None:
        raise ApiError(f"source entity not found: {source_id}")
    if tgt is None:
        raise ApiError(f"target entity not found: {target_id}")
    if not fault("merge-drops-source-relationships"):     # FAULT: source edges deleted with it
        repoint_relationships(source_id, target_id, keep_same_as=False)
    if tgt["description"] is None:
        tgt["description"] = src["description"]
    for a in [src["name"]] + src["aliases"]:
        if a != tgt["name"] and a not in tgt["aliases"]:
            tgt["aliases"].append(a)
    if fault("merge-canonical-name-ignored"):
        canonical_name = None       # FAULT: the parameter is dropped
    tgt["canonical_name"] = canonical_name if canonical_name is not None else tgt["name"]
    if fault("merge-keeps-source"):
        return ser_entity(tgt)      # FAULT: the source entity is never removed
    delete_entity_internal(source_id)
    return ser_entity(tgt)


def m_get_similar_traces(p):
    task = p.req_str("task")
    limit = p.opt_int("limit", 5, 0)
    success_only = p.opt_bool("success_only", True)
    scored = []
    late_filter = fault("similar-traces-limit-before-success-filter")
    for t in sorted(STORE.traces.values(), key=lambda x: x["seq"]):
        if success_only and t["success"] is not True:
            if not fault("similar-traces-success-only-ignored") and not late_filter:
                continue
        if fault("similar-traces-case-sensitive"):
            # FAULT: the comparison is not case-insensitive
            s = 1.0 if task.strip() and task.strip() in t["task"] else 0.0
            if not s:
                qw = [w for w in re.findall(r"\w+", task) if w.casefold() not in STOPWORDS]
                tw = set(re.findall(r"\w+", t["task"]))
                s = (sum(1 for w in qw if any(x.startswith(w) for x in tw)) / len(qw)) if qw else 0.0
        else:
            s = similarity(task, t["task"])
        if s > 0:
            scored.append((-s, t["seq"], t))
    scored.sort(key=lambda x: (x[0], x[1]))
    if not (fault("similar-traces-limit-ignored-unfiltered") and not success_only):
        scored = scored[:limit]     # FAULT2: the success_only=false branch forgets the LIMIT
    if late_filter and success_only:
        # FAULT: LIMIT applied before the success filter
        scored = [x for x in scored if x[2]["success"] is True]
    return [ser_trace(x[2]) for x in scored]


# ---------------------------------------------------------------------------
# methods: Platinum (Volume 5)
# ---------------------------------------------------------------------------

def conv_by_id(cid):
    return STORE.conversations.get(cid)


def m_create_conversation(p):
    user_id = p.req_str("user_id", nonempty=True)
    if fault("conversation-user-id-lowercased"):
        user_id = user_id.lower()   # FAULT2: user ids normalised to lower case
    metadata = p.opt_obj("metadata")
    cid = str(uuid.uuid4())
    c = {
        "id": cid,
        # a hosted conversation's session is its own id, so the Bronze
        # short-term methods reach it with session_id = conversation id
        "session_id": cid,
        "title": None,
        "created_at": STORE.now(),
        "updated_at": None,
        "user_id": user_id,
        "metadata": copy_json(metadata) if metadata is not None else {},
        "seq": STORE.next_seq(),
    }
    STORE.conversations[cid] = c
    STORE.sessions[cid] = cid
    STORE.conv_msgs[cid] = []
    return ser_conversation(c, [], platinum=True)


def m_list_conversations(p):
    limit = p.opt_int("limit", None, 0)
    convs = sorted(STORE.conversations.values(), key=lambda c: -c["seq"])
    if fault("list-conversations-by-activity"):
        # FAULT2: ordered by last activity (updated_at) instead of creation
        convs.sort(key=lambda c: c["updated_at"] or c["created_at"], reverse=True)
    if fault("list-conversations-oldest-first"):
        convs.reverse()     # FAULT: ORDER BY created_at ASC
    if limit is not None:
        convs = convs[:limit]
    return [ser_conversation(c, [], platinum=True) for c in convs]


def m_get_conversation_metadata(p):
    cid = p.req_uuid("conversation_id")
    c = conv_by_id(cid)
    if c is None:
        return NULL
    return ser_conversation(c, [], platinum=True)


def m_delete_conversation(p):
    cid = p.req_uuid("conversation_id")
    if fault("delete-conversation-not-idempotent") and cid not in STORE.conversations:
        raise ApiError(f"conversation not found: {cid}")     # FAULT: second delete fails
    if fault("delete-conversation-keeps-messages"):
        # FAULT: only the conversation node goes; its messages stay in the message index
        c = STORE.conversations.pop(cid, None)
        if c and STORE.sessions.get(c["session_id"]) == cid:
            del STORE.sessions[c["session_id"]]
        return VOID
    remove_conversation(cid)
    return VOID


def m_get_context(p):
    cid = p.req_uuid("conversation_id")
    c = conv_by_id(cid)
    if c is None:
        return NULL
    if fault("context-cache-stale") and cid in STORE.context_cache:
        return copy_json(STORE.context_cache[cid])   # FAULT: never invalidated by new messages
    msgs = conv_messages(cid)
    recent = msgs[-RECENT_N:]
    if fault("context-recent-first-n"):
        recent = msgs[:RECENT_N]    # FAULT2: ORDER BY timestamp ASC LIMIT n
    out = {
        "reflections": reflections_for(cid),
        "observations": observations_for(cid),
        "recent_messages": [ser_message(m) for m in recent],
    }
    if fault("context-cache-stale"):
        STORE.context_cache[cid] = copy_json(out)
    return out


def m_bulk_add_messages(p):
    cid = p.req_uuid("conversation_id")
    if not p.has("messages"):
        raise ApiError("missing required parameter 'messages'")
    items = p.raw("messages")
    if not isinstance(items, list):
        raise ApiError("parameter 'messages' must be an array")
    cap = BULK_CAP + 1 if fault("bulk-cap-off-by-one") else BULK_CAP   # FAULT: 101 accepted
    if len(items) > cap:
        raise ApiError(f"at most {BULK_CAP} messages per bulk request (got {len(items)})")
    parsed = []
    for i, it in enumerate(items):
        if not isinstance(it, dict):
            raise ApiError(f"messages[{i}] must be an object")
        ip = Params(it)
        try:
            role = parse_role(ip)
            content = ip.req_str("content")
            metadata = ip.opt_obj("metadata")
        except ApiError as e:
            raise ApiError(f"messages[{i}]: {e.message}")
        parsed.append((role, content, metadata))
    c = conv_by_id(cid)
    if c is None:
        raise ApiError(f"conversation not found: {cid}")
    if fault("bulk-metadata-first-item") and parsed:
        STORE.bulk_first_md = parsed[0][2] or {}
    try:
        out = [ser_message(store_message(c, r, ct, md)) for (r, ct, md) in parsed]
    finally:
        STORE.bulk_first_md = None
    if fault("bulk-returns-reversed"):
        out.reverse()       # FAULT: answer built by prepending
    return out


def m_get_observations(p):
    cid = p.req_uuid("conversation_id")
    limit = p.opt_int("limit", None, 0)
    if conv_by_id(cid) is None:
        return []
    obs = observations_for(cid)
    if limit is not None:
        obs = obs[len(obs) - limit:] if limit else []
    return obs


def m_get_reflections(p):
    cid = p.req_uuid("conversation_id")
    if conv_by_id(cid) is None:
        return []
    return reflections_for(cid)


def m_list_entities(p):
    etype = p.opt_str("type")
    limit = p.opt_int("limit", None, 0)
    es = sorted(STORE.entities.values(), key=lambda e: -e["seq"])
    if etype is not None:
        es = [e for e in es if e["type"] == etype]
    if limit is not None:
        es = es[:limit]
    return [ser_entity(e) for e in es]


def m_get_entity(p):
    eid = p.req_uuid("entity_id")
    e = STORE.entities.get(eid)
    if e is None:
        return NULL
    out = ser_entity(e)
    out["relationships"] = [ser_relationship(r) for r in STORE.relationships.values()
                            if eid in (r["source_id"], r["target_id"])]
    return out


def m_update_entity(p):
    eid = p.req_uuid("entity_id")
    name = p.opt_str("name", nonempty=True)
    description = p.opt_str("description")
    e = STORE.entities.get(eid)
    if e is None:
        raise ApiError(f"entity not found: {eid}")
    if name is not None:
        e["name"] = name
    if description is not None:
        e["description"] = description
    if fault("update-entity-clears-description") and description is None:
        e["description"] = None     # FAULT: PUT semantics: an omitted field is cleared
    return ser_entity(e)


def m_delete_entity(p):
    eid = p.req_uuid("entity_id")
    if fault("delete-entity-keeps-relationships"):
        STORE.entities.pop(eid, None)   # FAULT: no DETACH: edges are left dangling
        return VOID
    delete_entity_internal(eid)
    return VOID


def m_set_entity_feedback(p):
    eid = p.req_uuid("entity_id")
    lo, hi = (0.0, 100.0) if fault("feedback-score-range-unchecked") else (0.0, 1.0)   # FAULT: 0-100 scale
    score = p.req_num("user_score", lo, hi)
    confirmed = p.req_bool("confirmed")
    if eid not in STORE.entities:
        if fault("feedback-updated-always-true"):
            return {"id": eid, "updated": True}     # FAULT2: reports success without a match
        return {"id": eid, "updated": False}
    STORE.feedback[eid] = {"user_score": score, "confirmed": confirmed}
    return {"id": eid, "updated": True}


def m_get_entity_history(p):
    eid = p.req_uuid("entity_id")
    e = STORE.entities.get(eid)
    if e is None:
        return NULL
    mentions = []
    pool = list(STORE.messages.values()) + (STORE.deleted_msgs if fault("history-includes-deleted-messages") else [])
    for m in sorted(pool, key=lambda x: x["seq"]):
        if text_mentions(e, m["content"]):
            mentions.append({
                "conversation_id": m["conv_id"],
                "message_id": m["id"],
                "content": m["content"],
                "timestamp": iso(m["timestamp"]),
            })
    if fault("history-single-conversation") and mentions:
        # FAULT: only the first conversation's mentions are kept
        first = mentions[0]["conversation_id"]
        mentions = [x for x in mentions if x["conversation_id"] == first]
    return {"entity_id": eid, "mentions": mentions}


def m_merge_entities(p):
    source_id = p.req_uuid("source_id")
    target_id = p.req_uuid("target_id")
    if source_id == target_id:
        raise ApiError("source_id and target_id must differ")
    src = STORE.entities.get(source_id)
    tgt = STORE.entities.get(target_id)
    if src is None:
        raise ApiError(f"source entity not found: {source_id}")
    if tgt is None:
        raise ApiError(f"target entity not found: {target_id}")
    repoint_relationships(source_id, target_id, keep_same_as=True)
    exists = any(r["type"] == "SAME_AS" and r["source_id"] == source_id and r["target_id"] == target_id
                 for r in STORE.relationships.values())
    if not exists:
        a, b = (target_id, source_id) if fault("same-as-reversed") else (source_id, target_id)   # FAULT: direction
        r = {"id": str(uuid.uuid4()), "source_id": a, "target_id": b,
             "type": "SAME_AS", "properties": {}}
        STORE.relationships[r["id"]] = r
    if src["canonical_name"] is None:
        src["canonical_name"] = tgt["name"]
    return {"source_id": source_id, "target_id": target_id, "status": "merged"}


def m_get_entity_graph(p):
    nodes = [{"id": e["id"], "name": e["name"], "type": e["type"]}
             for e in sorted(STORE.entities.values(), key=lambda x: x["seq"])]
    edges = [{"id": r["id"], "source": r["source_id"], "target": r["target_id"], "type": r["type"]}
             for r in STORE.relationships.values()]
    if fault("graph-parallel-edges-collapsed"):
        # FAULT2: one edge per (source, target) pair, like a visualisation de-dup
        seen, kept = set(), []
        for e in edges:
            if (e["source"], e["target"]) not in seen:
                seen.add((e["source"], e["target"]))
                kept.append(e)
        edges = kept
    return {"nodes": nodes, "edges": edges}


def m_record_step(p):
    cid = p.req_uuid("conversation_id")
    reasoning = p.req_str("reasoning")
    action_taken = p.req_str("action_taken")
    result = p.opt_str("result")
    c = conv_by_id(cid)
    if c is None:
        raise ApiError(f"conversation not found: {cid}")
    s = {
        "id": str(uuid.uuid4()),
        "conversation_id": cid,
        "reasoning": reasoning,
        "action_taken": action_taken,
        "result": None if fault("record-step-result-lost") else result,   # FAULT2: result not persisted
        "created_at": STORE.now(),
        "tool_calls": [],
        "seq": STORE.next_seq(),
    }
    STORE.agent_steps[s["id"]] = s
    STORE.conv_steps.setdefault(cid, []).append(s["id"])
    return dict(ser_agent_step(s), result=result)


def m_list_steps(p):
    cid = p.req_uuid("conversation_id")
    steps = [STORE.agent_steps[s] for s in STORE.conv_steps.get(cid, [])]
    if fault("list-steps-all-conversations"):
        # FAULT: the conversation filter is lost
        steps = sorted(STORE.agent_steps.values(), key=lambda x: x["seq"])
    return [ser_agent_step(s) for s in steps]


def m_explain_step(p):
    sid = p.req_uuid("step_id")
    s = STORE.agent_steps.get(sid)
    if s is None:
        return NULL
    out = ser_agent_step(s)
    out["tool_calls"] = [ser_tool_call(STORE.tool_calls[t]) for t in s["tool_calls"]]
    if fault("explain-step-conversation-tool-calls"):
        # FAULT2: joined on the conversation, not the step
        out["tool_calls"] = [ser_tool_call(STORE.tool_calls[t]) for o in STORE.conv_steps.get(s["conversation_id"], [])
                             for t in STORE.agent_steps[o]["tool_calls"]]
    if fault("explain-step-misses-tool-calls"):
        out["tool_calls"] = []      # FAULT: tool calls looked up under the Silver step index only
    out["influenced_entities"] = [ser_entity(e) for e in influenced_entities(s)]
    return out


def m_get_trace_by_conversation(p):
    cid = p.req_uuid("conversation_id")
    if conv_by_id(cid) is None:
        return NULL
    steps = [STORE.agent_steps[s] for s in STORE.conv_steps.get(cid, [])]
    tcs = []
    for s in steps:
        tcs.extend(STORE.tool_calls[t] for t in s["tool_calls"])
    if fault("conv-trace-tool-calls-first-step-only") and steps:
        # FAULT: the tool-call join uses the first step only
        tcs = [STORE.tool_calls[t] for t in steps[0]["tool_calls"]]
    return {"conversation_id": cid,
            "steps": [ser_agent_step(s) for s in steps],
            "tool_calls": [ser_tool_call(t) for t in tcs]}


def m_get_entity_provenance(p):
    eid = p.req_uuid("entity_id")
    e = STORE.entities.get(eid)
    if e is None:
        return NULL
    steps = []
    for s in sorted(STORE.agent_steps.values(), key=lambda x: x["seq"]):
        text = agent_step_text(s)
        if text_mentions(e, text):
            steps.append(ser_agent_step(s))
    return {"entity_id": eid, "steps": steps}


def m_cypher_query(p):
    cypher = p.req_str("cypher", nonempty=True)
    params = p.opt_obj("params") or {}
    return cypher_run(cypher, params)



# ---------------------------------------------------------------------------
# a tiny read-only Cypher subset for cypher_query
# ---------------------------------------------------------------------------

WRITE_KEYWORDS = ("CREATE", "MERGE", "DELETE", "DETACH", "SET", "REMOVE", "DROP", "FOREACH", "LOAD")
CY_TOKEN = re.compile(r"""
    (?P<ws>\s+) |
    (?P<lcomment>//[^\n]*) |
    (?P<bcomment>/\*.*?(?:\*/|\Z)) |
    (?P<str>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*") |
    (?P<bt>`[^`]*`) |
    (?P<num>\d+\.\d+|\d+) |
    (?P<param>\$[A-Za-z_][A-Za-z0-9_]*) |
    (?P<ident>[A-Za-z_][A-Za-z0-9_]*) |
    (?P<op><>|!=|<=|>=|=~|[=<>(){}\[\],.:;*+\-/%|])
""", re.X | re.S)

ENTITY_LABELS = {"Person": "PERSON", "Organization": "ORGANIZATION", "Location": "LOCATION",
                 "Event": "EVENT", "Object": "OBJECT"}
# a relationship pattern looks at no more than this many (relationship, direction) candidates
CY_MAX_CANDIDATES = 200000


def cy_tokens(text):
    out, pos = [], 0
    while pos < len(text):
        m = CY_TOKEN.match(text, pos)
        if not m:
            raise ApiError(f"cypher: unexpected character at offset {pos}")
        pos = m.end()
        kind = m.lastgroup
        if kind in ("ws", "lcomment", "bcomment"):
            continue
        val = m.group(kind)
        if kind == "str":
            body = val[1:-1]
            val = re.sub(r"\\(.)", lambda mm: {"n": "\n", "t": "\t", "r": "\r"}.get(mm.group(1), mm.group(1)), body)
        elif kind == "bt":
            kind, val = "ident", val[1:-1]
        out.append((kind, val))
    return out


def cy_check_read_only(toks, text):
    if fault("cypher-write-in-string-rejected"):
        # FAULT: a keyword scan over the raw text, string literals included
        m = re.search(r"\b(" + "|".join(WRITE_KEYWORDS) + r")\b", text, re.I)
        if m:
            raise ApiError(f"cypher: write operations are not allowed ({m.group(1).upper()})")
    for i, (kind, val) in enumerate(toks):
        if kind != "ident":
            continue
        prev = toks[i - 1][1] if i > 0 and toks[i - 1][0] == "op" else None
        if prev in (".", ":"):
            continue
        if val.upper() in WRITE_KEYWORDS:
            raise ApiError(f"cypher: write operations are not allowed ({val.upper()})")


def cy_nodes(label):
    s = STORE
    groups = {
        "Entity": [ser_entity(e) for e in sorted(s.entities.values(), key=lambda x: x["seq"])],
        "Conversation": [ser_conversation(c, [], platinum=True) for c in
                         sorted(s.conversations.values(), key=lambda x: x["seq"])],
        "Message": [dict(ser_message(m), session_id=(s.conversations.get(m["conv_id"]) or {}).get("session_id"))
                    for m in sorted(s.messages.values(), key=lambda x: x["seq"])],
        "Preference": [{"id": x["id"], "category": x["category"], "preference": x["preference"],
                        "context": x["context"]} for x in sorted(s.preferences.values(), key=lambda x: x["seq"])],
        "Fact": [{"id": x["id"], "subject": x["subject"], "predicate": x["predicate"], "object": x["object"]}
                 for x in sorted(s.facts.values(), key=lambda x: x["seq"])],
        "ReasoningTrace": [{k: v for k, v in ser_trace(t).items() if k != "steps"}
                           for t in sorted(s.traces.values(), key=lambda x: x["seq"])],
        "ReasoningStep": [{k: v for k, v in ser_step(st).items() if k != "tool_calls"} for st in s.steps.values()],
        "AgentStep": [ser_agent_step(st) for st in sorted(s.agent_steps.values(), key=lambda x: x["seq"])],
        "ToolCall": [ser_tool_call(tc) for tc in sorted(s.tool_calls.values(), key=lambda x: x["seq"])],
    }
    if label is None:
        return [n for g in groups.values() for n in g]
    if cy_entity_label(label):
        return [n for n in groups["Entity"] if cy_label_matches(label, n)]
    return next((g for name, g in groups.items() if name.casefold() == label.casefold()), [])


def cy_entity_label(label):
    # labels are read case-insensitively: Entity (every entity) or an entity type (Person = PERSON)
    return label.casefold() == "entity" or label.upper() in ENTITY_TYPES


def cy_label_matches(label, entity):
    # entity is a serialised entity; a node without a label matches
    if label is None or label.casefold() == "entity":
        return True
    return label.casefold() == str(entity["type"]).casefold()


def cy_relationship(r):
    # a relationship in a row: the Relationship fields and its type under "type"
    return dict(ser_relationship(r), type=r["type"])


class CyParser:
    def __init__(self, toks, params):
        self.t = toks
        self.i = 0
        self.params = params

    def peek(self, k=0):
        j = self.i + k
        return self.t[j] if j < len(self.t) else (None, None)

    def kw(self, word):
        kind, val = self.peek()
        if kind == "ident" and val.upper() == word:
            self.i += 1
            return True
        return False

    def expect_op(self, op):
        kind, val = self.peek()
        if kind != "op" or val != op:
            raise ApiError(f"cypher: expected '{op}'")
        self.i += 1

    def is_op(self, op):
        kind, val = self.peek()
        return kind == "op" and val == op

    def literal(self):
        kind, val = self.peek()
        neg = False
        if kind == "op" and val == "-":
            self.i += 1
            neg = True
            kind, val = self.peek()
        if kind == "num":
            self.i += 1
            v = float(val) if "." in val else int(val)
            return ("lit", -v if neg else v)
        if neg:
            raise ApiError("cypher: expected a number after '-'")
        if kind == "str":
            self.i += 1
            return ("lit", val)
        if kind == "param":
            self.i += 1
            name = val[1:]
            if name not in self.params:
                raise ApiError(f"cypher: missing parameter ${name}")
            return ("lit", self.params[name])
        if kind == "ident" and val.upper() in ("TRUE", "FALSE", "NULL"):
            self.i += 1
            return ("lit", {"TRUE": True, "FALSE": False, "NULL": None}[val.upper()])
        return None

    def operand(self):
        lit = self.literal()
        if lit is not None:
            return lit
        kind, val = self.peek()
        if kind == "ident" and val.casefold() == "type" and self.peek(1) == ("op", "("):
            self.i += 2
            k2, var = self.peek()
            if k2 != "ident":
                raise ApiError("cypher: type() takes a relationship variable")
            self.i += 1
            self.expect_op(")")
            return ("type", var)
        if kind == "ident":
            self.i += 1
            if self.is_op("."):
                self.i += 1
                k2, prop = self.peek()
                if k2 != "ident":
                    raise ApiError("cypher: expected a property name")
                self.i += 1
                return ("prop", val, prop)
            return ("var", val)
        raise ApiError("cypher: unsupported expression")

    def prop_map(self):
        props = {}
        if not self.is_op("{"):
            return props
        self.i += 1
        while not self.is_op("}"):
            kind, key = self.peek()
            if kind != "ident":
                raise ApiError("cypher: expected a property key")
            self.i += 1
            self.expect_op(":")
            lit = self.literal()
            if lit is None:
                raise ApiError("cypher: property maps take literals or parameters")
            props[key] = lit[1]
            if self.is_op(","):
                self.i += 1
        self.i += 1
        return props

    def node_pattern(self):
        # (v[:Label] [{k: lit}])
        self.expect_op("(")
        var, label = None, None
        kind, val = self.peek()
        if kind == "ident":
            var = val
            self.i += 1
        if self.is_op(":"):
            self.i += 1
            kind, val = self.peek()
            if kind != "ident":
                raise ApiError("cypher: expected a label")
            label = val
            self.i += 1
        props = self.prop_map()
        self.expect_op(")")
        return var, label, props

    def rel_pattern(self):
        # -[r:TYPE|TYPE {k: lit}]->, <-[..]-, -[..]-, -->, <--, --  (one hop)
        left = self.is_op("<")
        if left:
            self.i += 1
        self.expect_op("-")
        var, types, props = None, [], {}
        if self.is_op("["):
            self.i += 1
            kind, val = self.peek()
            if kind == "ident":
                var = val
                self.i += 1
            if self.is_op(":"):
                while True:
                    self.i += 1
                    kind, val = self.peek()
                    if kind != "ident":
                        raise ApiError("cypher: expected a relationship type")
                    types.append(val)
                    self.i += 1
                    if not self.is_op("|"):
                        break
            if self.is_op("*"):
                raise ApiError("cypher: unsupported query; variable-length relationships are not supported "
                               "(one hop only)")
            props = self.prop_map()
            self.expect_op("]")
        self.expect_op("-")
        right = self.is_op(">")
        if right:
            self.i += 1
        direction = "out" if right and not left else "in" if left and not right else "both"
        return var, types, props, direction

    def int_clause(self):
        lit = self.literal()
        if lit is None or isinstance(lit[1], bool) or not isinstance(lit[1], int) or lit[1] < 0:
            raise ApiError("cypher: SKIP/LIMIT need a non-negative integer")
        return lit[1]


def cy_eval(expr, row):
    if expr[0] == "lit":
        return expr[1]
    if expr[0] == "var":
        if expr[1] not in row:
            raise ApiError(f"cypher: variable '{expr[1]}' not defined")
        return row[expr[1]]
    node = row.get(expr[1])
    if expr[1] not in row:
        raise ApiError(f"cypher: variable '{expr[1]}' not defined")
    if expr[0] == "type":
        if not (isinstance(node, dict) and "relationship_type" in node):
            raise ApiError(f"cypher: type() needs a relationship, '{expr[1]}' is not one")
        return node["type"]
    if not isinstance(node, dict):
        return None
    if "relationship_type" in node and expr[2] not in node:
        return node["properties"].get(expr[2])      # a relationship's own properties
    return node.get(expr[2])


def cy_match_relationships(a, rel, b):
    # one hop (a)-[rel]-(b) over the stored relationships (add_relationship, SAME_AS of merge_entities);
    # openCypher: an undirected pattern matches a relationship once per direction (once for a self-loop)
    (a_var, a_label, a_props), (r_var, r_types, r_props, direction), (b_var, b_label, b_props) = a, rel, b
    if r_var is not None and r_var in (a_var, b_var):
        raise ApiError(f"cypher: variable '{r_var}' is both a node and a relationship")
    for label in (a_label, b_label):
        if label is not None and not cy_entity_label(label):
            return []       # relationships join entities only
    rels = [r for r in STORE.relationships.values()
            if r["source_id"] in STORE.entities and r["target_id"] in STORE.entities
            and (not r_types or r["type"] in r_types)
            and all(r["properties"].get(k) == v for k, v in r_props.items())]
    if len(rels) * (2 if direction == "both" else 1) > CY_MAX_CANDIDATES:
        raise ApiError(f"cypher: the relationship pattern has more than {CY_MAX_CANDIDATES} candidates; "
                       "narrow it with a relationship type")
    nodes = {}

    def node(eid, label, props):
        if eid not in nodes:
            nodes[eid] = ser_entity(STORE.entities[eid])
        n = nodes[eid]
        return n if cy_label_matches(label, n) and all(n.get(k) == v for k, v in props.items()) else None

    rows = []
    for r in rels:
        ends = [(r["source_id"], r["target_id"])] if direction == "out" else \
               [(r["target_id"], r["source_id"])] if direction == "in" else \
               [(r["source_id"], r["target_id"])] + ([(r["target_id"], r["source_id"])]
                                                     if r["source_id"] != r["target_id"] else [])
        for x, y in ends:
            if a_var is not None and a_var == b_var and x != y:
                continue
            na, nb = node(x, a_label, a_props), node(y, b_label, b_props)
            if na is None or nb is None:
                continue
            row = {}
            if a_var is not None:
                row[a_var] = na
            if b_var is not None:
                row[b_var] = nb
            if r_var is not None:
                row[r_var] = cy_relationship(r)
            rows.append(row)
    return rows


def cy_compare(op, a, b):
    if op == "=":
        return a == b and a is not None
    if op in ("<>", "!="):
        return a != b and a is not None and b is not None
    if op in ("CONTAINS", "STARTS", "ENDS"):
        if not isinstance(a, str) or not isinstance(b, str):
            return False
        return {"CONTAINS": b in a, "STARTS": a.startswith(b), "ENDS": a.endswith(b)}[op]
    try:
        return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]
    except TypeError:
        return False


def cypher_run(cypher, params):
    if len(cypher) > 65536:
        raise ApiError("cypher: query text longer than 65536 characters")
    toks = cy_tokens(cypher)
    cy_check_read_only(toks, cypher)
    if toks and toks[-1] == ("op", ";"):
        toks = toks[:-1]
    p = CyParser(toks, params)
    rows = [{}]
    if p.kw("MATCH"):
        var, label, props = p.node_pattern()
        if p.is_op("-") or p.is_op("<"):
            rel = p.rel_pattern()
            rows = cy_match_relationships((var, label, props), rel, p.node_pattern())
        else:
            nodes = [n for n in cy_nodes(label) if all(n.get(k) == v for k, v in props.items())]
            rows = [{var: n} if var else {} for n in nodes]
        if p.kw("WHERE"):
            conds = []
            while True:
                left = p.operand()
                kind, val = p.peek()
                if kind == "op" and val in ("=", "<>", "!=", "<", ">", "<=", ">="):
                    p.i += 1
                    op = val
                elif p.kw("CONTAINS"):
                    op = "CONTAINS"
                elif p.kw("STARTS"):
                    if not p.kw("WITH"):
                        raise ApiError("cypher: expected STARTS WITH")
                    op = "STARTS"
                elif p.kw("ENDS"):
                    if not p.kw("WITH"):
                        raise ApiError("cypher: expected ENDS WITH")
                    op = "ENDS"
                else:
                    raise ApiError("cypher: unsupported WHERE condition")
                right = p.operand()
                conds.append((op, left, right))
                if not p.kw("AND"):
                    break
            rows = [r for r in rows if all(cy_compare(op, cy_eval(l, r), cy_eval(rt, r)) for op, l, rt in conds)]
    if not p.kw("RETURN"):
        raise ApiError("cypher: unsupported query; this server supports "
                       "[MATCH (v:Label {..})[-[r:TYPE]->(w:Label {..})] [WHERE ..]] "
                       "RETURN .. [ORDER BY ..] [SKIP n] [LIMIT n]")
    distinct = p.kw("DISTINCT")
    items = []
    while True:
        start = p.i
        if p.peek()[0] == "ident" and p.peek()[1].upper() == "COUNT" and p.peek(1) == ("op", "("):
            p.i += 2
            once = p.kw("DISTINCT")   # count(DISTINCT x): each distinct non-null value once
            if p.is_op("*") and not once:
                p.i += 1
                arg = None
            else:
                arg = p.operand()
            p.expect_op(")")
            expr = ("count", arg, once)
        else:
            expr = p.operand()
        text = "".join(v if k != "str" else repr(v) for k, v in toks[start:p.i])
        alias = text
        if p.kw("AS"):
            kind, val = p.peek()
            if kind != "ident":
                raise ApiError("cypher: expected an alias after AS")
            alias = val
            p.i += 1
        items.append((alias, expr))
        if not p.is_op(","):
            break
        p.i += 1
    order, skip, limit = [], 0, None
    if p.kw("ORDER"):
        if not p.kw("BY"):
            raise ApiError("cypher: expected ORDER BY")
        while True:
            kind, val = p.peek()
            expr = p.operand()
            desc = False
            if p.kw("DESC") or p.kw("DESCENDING"):
                desc = True
            else:
                p.kw("ASC") or p.kw("ASCENDING")
            order.append((expr, desc))
            if not p.is_op(","):
                break
            p.i += 1
    if p.kw("SKIP"):
        skip = p.int_clause()
    if p.kw("LIMIT"):
        limit = p.int_clause()
    if p.i != len(toks):
        raise ApiError(f"cypher: unsupported syntax near '{toks[p.i][1]}'")
    aggregate = any(e[0] == "count" for _, e in items)
    columns = [a for a, _ in items]
    if aggregate:
        groups = {}
        for r in rows:
            key = json.dumps([cy_eval(e, r) for _, e in items if e[0] != "count"], sort_keys=True, default=str)
            groups.setdefault(key, []).append(r)
        if not rows and all(e[0] == "count" for _, e in items):
            groups[json.dumps([])] = []
        out_rows = []
        for key, members in groups.items():
            keyvals = iter(json.loads(key))
            out = {}
            for alias, e in items:
                if e[0] == "count" and e[1] is not None and e[2]:
                    out[alias] = len({json.dumps(v, sort_keys=True, default=str)
                                      for v in (cy_eval(e[1], r) for r in members) if v is not None})
                elif e[0] == "count":
                    out[alias] = len(members) if e[1] is None else sum(
                        1 for r in members if cy_eval(e[1], r) is not None)
                else:
                    out[alias] = next(keyvals)
            out_rows.append(out)
    else:
        out_rows = []
        for r in rows:
            out = {}
            for alias, e in items:
                out[alias] = cy_eval(e, r)
            out_rows.append((out, r))
    if order:
        def sort_key(pair, expr, desc):
            out, r = pair if isinstance(pair, tuple) else (pair, pair)
            if expr[0] == "var" and expr[1] in out:
                v = out[expr[1]]
            else:
                v = cy_eval(expr, r)
            return (v is None, json.dumps(v, sort_keys=True, default=str) if not isinstance(v, (int, float)) or isinstance(v, bool) else "", v if isinstance(v, (int, float)) and not isinstance(v, bool) else 0)
        if fault("cypher-limit-before-order") and limit is not None and not distinct:
            out_rows = out_rows[skip:skip + limit]     # FAULT2: SKIP/LIMIT pushed below ORDER BY
            skip, limit = 0, None
        for expr, desc in reversed(order):
            out_rows.sort(key=lambda pr: sort_key(pr, expr, desc), reverse=desc)
    out_rows = [pr[0] if isinstance(pr, tuple) else pr for pr in out_rows]
    if distinct:
        seen, dd = set(), []
        for o in out_rows:
            k = json.dumps(o, sort_keys=True, default=str)
            if k not in seen:
                seen.add(k)
                dd.append(o)
        out_rows = dd
    out_rows = out_rows[skip:]
    if limit is not None:
        out_rows = out_rows[:limit]
    return {"columns": columns,
            "rows": [[copy_json(o[c]) for c in columns] for o in out_rows],
            "stats": {"contains_updates": False, "rows": len(out_rows)}}


METHODS = {
    # lifecycle
    "setup": m_setup,
    "teardown": m_teardown,
    "clear_all_data": m_clear_all_data,
    # Bronze
    "add_message": m_add_message,
    "get_conversation": m_get_conversation,
    "search_messages": m_search_messages,
    "list_sessions": m_list_sessions,
    "delete_message": m_delete_message,
    "clear_session": m_clear_session,
    # Silver long-term
    "add_entity": m_add_entity,
    "add_preference": m_add_preference,
    "add_fact": m_add_fact,
    "search_entities": m_search_entities,
    "search_preferences": m_search_preferences,
    "get_entity_by_name": m_get_entity_by_name,
    "get_related_entities": m_get_related_entities,
    # Silver reasoning
    "start_trace": m_start_trace,
    "add_step": m_add_step,
    "record_tool_call": m_record_tool_call,
    "complete_trace": m_complete_trace,
    "get_trace_with_steps": m_get_trace_with_steps,
    "list_traces": m_list_traces,
    "get_tool_stats": m_get_tool_stats,
    # Gold
    "add_relationship": m_add_relationship,
    "merge_duplicate_entities": m_merge_duplicate_entities,
    "get_similar_traces": m_get_similar_traces,
    # Platinum
    "create_conversation": m_create_conversation,
    "list_conversations": m_list_conversations,
    "get_conversation_metadata": m_get_conversation_metadata,
    "delete_conversation": m_delete_conversation,
    "get_context": m_get_context,
    "bulk_add_messages": m_bulk_add_messages,
    "get_observations": m_get_observations,
    "get_reflections": m_get_reflections,
    "list_entities": m_list_entities,
    "get_entity": m_get_entity,
    "update_entity": m_update_entity,
    "delete_entity": m_delete_entity,
    "set_entity_feedback": m_set_entity_feedback,
    "get_entity_history": m_get_entity_history,
    "merge_entities": m_merge_entities,
    "get_entity_graph": m_get_entity_graph,
    "record_step": m_record_step,
    "list_steps": m_list_steps,
    "explain_step": m_explain_step,
    "get_trace_by_conversation": m_get_trace_by_conversation,
    "get_entity_provenance": m_get_entity_provenance,
    "cypher_query": m_cypher_query,
}


# ---------------------------------------------------------------------------
# HTTP layer
# ---------------------------------------------------------------------------

def _reject_constant(name):
    raise ValueError(f"invalid JSON constant {name}")


def _parse_float(text):
    v = float(text)
    if v != v or v in (float('inf'), float('-inf')):
        raise ValueError(f"number out of range: {text[:40]}")
    return v


def dispatch(method, raw_body):
    """Returns (status, body_bytes_or_None)."""
    fn = METHODS.get(method)
    if fn is None:
        return 400, {"error": f"unknown method: {method}"}
    if raw_body.strip() == b"":
        body = {}
    else:
        try:
            text = raw_body.decode("utf-8")
        except UnicodeDecodeError:
            return 400, {"error": "request body is not valid UTF-8"}
        try:
            body = json.loads(text, parse_constant=_reject_constant, parse_float=_parse_float)
        except (ValueError, RecursionError) as e:
            return 400, {"error": f"malformed JSON body: {str(e)[:200]}"}
        if body is None:
            body = {}
        if not isinstance(body, dict):
            return 400, {"error": "request body must be a JSON object"}
    try:
        if fault("add-message-lost-update") and method == "add_message":
            result = m_add_message_unlocked(Params(body))
            return 200, json.dumps(result, ensure_ascii=True).encode("ascii")
        with STORE.lock:
            result = fn(Params(body))
            if isinstance(result, _Void):
                return 204, None
            if isinstance(result, Null):
                return 200, NULL
            # serialise inside the lock so the answer is a consistent snapshot
            return 200, json.dumps(result, ensure_ascii=True).encode("ascii")
    except ApiError as e:
        return e.status, {"error": e.message}
    except RecursionError:
        return 400, {"error": "value nested too deeply"}
    except Exception as e:  # never crash the server
        print(f"internal error in {method}: {e!r}", file=sys.stderr)
        return 500, {"error": f"internal error: {type(e).__name__}"}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # TCP_NODELAY: a keep-alive answer written in two sends (headers, body) would wait for the
    # client's delayed ACK (~40 ms) under Nagle's algorithm: every request, not a rule of anyone's.
    disable_nagle_algorithm = True
    server_version = "blind-bridge/1.0"
    timeout = 30

    def log_message(self, fmt, *args):  # quiet; stderr only if asked
        if os.environ.get("BRIDGE_LOG"):
            sys.stderr.write("%s - %s\n" % (self.address_string(), fmt % args))

    def _send(self, status, payload, close=False):
        if payload is None:
            self.send_response(status)
            if close:
                self.send_header("Connection", "close")
                self.close_connection = True
            self.end_headers()
            return
        if isinstance(payload, Null):
            data = b"null"
        elif isinstance(payload, (bytes, bytearray)):
            data = bytes(payload)
        else:
            data = json.dumps(payload, ensure_ascii=True).encode("ascii")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        self.wfile.write(data)

    def _read_body(self):
        te = (self.headers.get("Transfer-Encoding") or "").lower()
        if "chunked" in te:
            chunks, total = [], 0
            while True:
                line = self.rfile.readline(1024)
                if not line:
                    raise ApiError("truncated chunked body")
                try:
                    size = int(line.split(b";")[0].strip(), 16)
                except ValueError:
                    raise ApiError("malformed chunked body")
                if size == 0:
                    while True:
                        trailer = self.rfile.readline(1024)
                        if trailer in (b"\r\n", b"\n", b""):
                            break
                    break
                total += size
                if total > MAX_BODY:
                    raise ApiError("request body too large", 413)
                chunks.append(self.rfile.read(size))
                self.rfile.readline(8)
            return b"".join(chunks)
        cl = self.headers.get("Content-Length")
        if cl is None:
            return b""
        try:
            n = int(cl)
        except ValueError:
            raise ApiError("invalid Content-Length")
        if n < 0:
            raise ApiError("invalid Content-Length")
        if n > MAX_BODY:
            if n <= 16 * MAX_BODY:
                # drain the announced body (bounded) so the client can read the answer
                left = n
                while left > 0:
                    chunk = self.rfile.read(min(left, 65536))
                    if not chunk:
                        break
                    left -= len(chunk)
            raise ApiError("request body too large", 413)
        data = self.rfile.read(n)
        if len(data) != n:
            raise ApiError("truncated request body")
        return data

    def do_POST(self):
        path = self.path.split("?", 1)[0]
        method = path.strip("/")
        try:
            body = self._read_body()
        except ApiError as e:
            self._send(400, {"error": e.message}, close=True)
            return
        status, payload = dispatch(method, body)
        self._send(status, payload)

    def _not_allowed(self):
        # drain a body if one was announced, then answer
        try:
            self._read_body()
        except ApiError:
            self._send(405, {"error": "only POST is supported"}, close=True)
            return
        self._send(405, {"error": "only POST is supported"})

    do_GET = do_PUT = do_DELETE = do_PATCH = _not_allowed

    def do_HEAD(self):
        self.send_response(405)
        self.send_header("Content-Length", "0")
        self.end_headers()


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128


def main(argv):
    port = None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--port" and i + 1 < len(argv):
            port = argv[i + 1]
            i += 2
            continue
        if a.startswith("--port="):
            port = a.split("=", 1)[1]
        i += 1
    if port is None:
        port = os.environ.get("TCK_BRIDGE_PORT") or "3001"
    try:
        port = int(port)
    except ValueError:
        print(f"invalid port: {port}", file=sys.stderr)
        return 2
    httpd = Server(("127.0.0.1", port), Handler)
    actual = httpd.server_address[1]
    sys.stdout.write(f"listening on http://127.0.0.1:{actual}\n")
    sys.stdout.flush()
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
