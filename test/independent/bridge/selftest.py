#!/usr/bin/env python3
"""Self-tests for server.py: start it on a free port and drive it over HTTP.

Run: python3 selftest.py      (INDEPENDENT_FAULT must be unset for a pass)
"""

import http.client
import json
import os
import re
import subprocess
import sys
import threading
import unittest
import uuid
from datetime import datetime, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")

PROC = None
PORT = None


def start_server():
    global PROC, PORT
    env = dict(os.environ)
    env.pop("INDEPENDENT_FAULT", None)
    if os.environ.get("SELFTEST_FAULT"):    # used to check that a fault is detected
        env["INDEPENDENT_FAULT"] = os.environ["SELFTEST_FAULT"]
    PROC = subprocess.Popen([sys.executable, os.path.join(HERE, "server.py"), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=open(os.environ.get("SELFTEST_STDERR", os.devnull), "w"),
                            env=env, text=True)
    line = PROC.stdout.readline().strip()
    m = re.fullmatch(r"listening on http://127\.0\.0\.1:(\d+)", line)
    if not m:
        raise RuntimeError(f"unexpected ready line: {line!r}")
    PORT = int(m.group(1))


def stop_server():
    if PROC is not None:
        PROC.terminate()
        try:
            PROC.wait(timeout=5)
        except subprocess.TimeoutExpired:
            PROC.kill()


def raw(method, path, body=b"", headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    try:
        h = {"Content-Type": "application/json"}
        h.update(headers or {})
        conn.request(method, path, body=body, headers=h)
        r = conn.getresponse()
        return r.status, r.read(), r.getheader("Content-Type")
    finally:
        conn.close()


def call(_m, **params):
    status, data, _ = raw("POST", "/" + _m, json.dumps(params).encode())
    if status == 204:
        assert data == b"", data
        return status, None
    return status, json.loads(data)


def ok(_m, **params):
    status, body = call(_m, **params)
    if status not in (200, 204):
        raise AssertionError(f"{_m} -> {status} {body}")
    return body


def ts(s):
    return datetime.fromisoformat(s.replace("Z", "+00:00"))


class Base(unittest.TestCase):
    def setUp(self):
        s, _ = call("clear_all_data")
        self.assertEqual(s, 204)

    def assertUUID(self, v):
        self.assertIsInstance(v, str)
        self.assertRegex(v, UUID_RE)

    def assertErr(self, _m, **params):
        s, body = call(_m, **params)
        self.assertIn(s, (400, 500), (_m, params, s, body))
        self.assertIsInstance(body, dict)
        self.assertIsInstance(body.get("error"), str)
        return body


class TestLifecycleAndHttp(Base):
    def test_setup(self):
        self.assertEqual(call("setup"), (200, {"ok": True, "protocol_version": "0.1.0"}))

    def test_teardown_and_clear_are_void(self):
        self.assertEqual(call("teardown"), (204, None))
        self.assertEqual(call("clear_all_data"), (204, None))

    def test_clear_all_data_wipes(self):
        ok("add_message", session_id="a", role="user", content="x")
        ok("add_entity", name="E", entity_type="PERSON")
        ok("start_trace", session_id="a", task="t")
        ok("create_conversation", user_id="u")
        ok("clear_all_data")
        self.assertEqual(ok("list_sessions"), [])
        self.assertIsNone(ok("get_entity_by_name", name="E"))
        self.assertEqual(ok("list_traces"), [])
        self.assertEqual(ok("list_conversations"), [])

    def test_errors(self):
        for body in (b"{bad", b"[1,2]", b"\"s\"", b"{\"a\": NaN}", b"\xff\xfe"):
            s, data, ctype = raw("POST", "/add_message", body)
            self.assertEqual(s, 400, body)
            self.assertIsInstance(json.loads(data)["error"], str)
            self.assertTrue(ctype.startswith("application/json"))
        s, data, _ = raw("POST", "/no_such_method", b"{}")
        self.assertEqual(s, 400)
        self.assertIn("error", json.loads(data))
        s, data, _ = raw("GET", "/setup")
        self.assertEqual(s, 405)
        s, data, _ = raw("POST", "/add_message", b"{\"content\": \"" + b"a" * (1024 * 1024 + 10) + b"\"}")
        self.assertEqual(s, 400)
        deep = b"[" * 100000 + b"]" * 100000
        s, data, _ = raw("POST", "/add_message", deep)
        self.assertEqual(s, 400)
        # server still alive
        self.assertEqual(call("setup")[0], 200)

    def test_empty_body_and_nulls_are_omitted(self):
        s, data, _ = raw("POST", "/list_sessions", b"")
        self.assertEqual((s, json.loads(data)), (200, []))
        m = ok("add_message", session_id="n", role="user", content="c", metadata=None)
        self.assertEqual(m["metadata"], {})
        self.assertEqual(len(ok("get_conversation", session_id="n", limit=None)["messages"]), 1)

    def test_type_errors(self):
        self.assertErr("add_message", session_id="s", role="user")
        self.assertErr("add_message", session_id="s", role="user", content=5)
        self.assertErr("add_message", session_id="s", role="robot", content="x")
        self.assertErr("add_message", session_id="s", role="USER", content="x")
        self.assertErr("add_message", session_id="s", role="user", content="x", metadata=[1])
        self.assertErr("get_conversation", session_id="s", limit="3")
        self.assertErr("get_conversation", session_id="s", limit=-1)
        self.assertErr("get_conversation", session_id="s", limit=2.5)
        self.assertErr("get_conversation", session_id="s", limit=True)
        self.assertErr("delete_message", message_id="not-a-uuid")
        self.assertErr("search_messages", query="x", threshold=1.5)

    def test_concurrent_writes_not_lost(self):
        errors = []

        def worker(k):
            try:
                for i in range(25):
                    ok("add_message", session_id=f"c{k % 4}", role="user", content=f"{k}:{i}")
            except Exception as e:  # pragma: no cover
                errors.append(e)

        th = [threading.Thread(target=worker, args=(k,)) for k in range(16)]
        for t in th:
            t.start()
        for t in th:
            t.join()
        self.assertEqual(errors, [])
        sessions = ok("list_sessions")
        self.assertEqual(sum(s["message_count"] for s in sessions), 400)
        for s in range(4):
            msgs = ok("get_conversation", session_id=f"c{s}")["messages"]
            self.assertEqual(len(msgs), 100)
            per = {}
            for m in msgs:
                k, i = m["content"].split(":")
                per.setdefault(k, []).append(int(i))
            for seq in per.values():
                self.assertEqual(seq, sorted(seq))
            stamps = [ts(m["timestamp"]) for m in msgs]
            self.assertEqual(stamps, sorted(stamps))


class TestShortTerm(Base):
    def test_add_message_shape(self):
        m = ok("add_message", session_id="s", role="user", content="Hello")
        self.assertEqual(set(m), {"id", "role", "content", "timestamp", "embedding", "metadata"})
        self.assertUUID(m["id"])
        self.assertEqual((m["role"], m["content"], m["metadata"], m["embedding"]), ("user", "Hello", {}, None))
        delta = abs((datetime.now(timezone.utc) - ts(m["timestamp"])).total_seconds())
        self.assertLess(delta, 60)
        for r in ("assistant", "system"):
            self.assertEqual(ok("add_message", session_id="s", role=r, content="x")["role"], r)

    def test_content_fidelity(self):
        samples = ["", "héllo wörld 日本語 🎉👍🏽", "a\nb\tc \"q\" 'q' \\ back", "\x00\x01\x1f\x7f", "x" * 20000,
                   "lone \ud800 surrogate", "  padded  "]
        ids = []
        for c in samples:
            m = ok("add_message", session_id="f", role="user", content=c)
            self.assertEqual(m["content"], c)
            ids.append(m["id"])
        conv = ok("get_conversation", session_id="f")
        self.assertEqual([m["content"] for m in conv["messages"]], samples)
        self.assertEqual([m["id"] for m in conv["messages"]], ids)

    def test_metadata(self):
        md = {"a": {"b": [1, 2, {"c": None}]}, "x": "ü", "n": 1.5, "t": True}
        m = ok("add_message", session_id="m", role="user", content="c", metadata=md)
        self.assertEqual(m["metadata"], md)
        self.assertEqual(ok("add_message", session_id="m", role="user", content="c", metadata={})["metadata"], {})
        self.assertEqual(ok("get_conversation", session_id="m")["messages"][0]["metadata"], md)

    def test_conversation_identity(self):
        c0 = ok("get_conversation", session_id="new")
        self.assertUUID(c0["id"])
        self.assertEqual((c0["session_id"], c0["messages"], c0["title"]), ("new", [], None))
        self.assertEqual(set(c0), {"id", "session_id", "messages", "title", "created_at", "updated_at"})
        self.assertEqual(ok("get_conversation", session_id="new")["id"], c0["id"])
        ok("add_message", session_id="new", role="user", content="x")
        ok("add_message", session_id="new", role="user", content="y")
        c1 = ok("get_conversation", session_id="new")
        self.assertEqual(c1["id"], c0["id"])
        ts(c1["created_at"])
        other = ok("get_conversation", session_id="other")
        self.assertNotEqual(other["id"], c0["id"])
        # a "new session" lookup creates nothing
        self.assertEqual([s["session_id"] for s in ok("list_sessions")], ["new"])

    def test_order_limit_isolation(self):
        for i in range(25):
            ok("add_message", session_id="o", role=["user", "assistant", "system"][i % 3], content=f"m{i}")
        ok("add_message", session_id="p", role="user", content="other")
        msgs = ok("get_conversation", session_id="o")["messages"]
        self.assertEqual([m["content"] for m in msgs], [f"m{i}" for i in range(25)])
        stamps = [ts(m["timestamp"]) for m in msgs]
        self.assertEqual(stamps, sorted(stamps))
        self.assertEqual(len(set(m["id"] for m in msgs)), 25)
        # limit: the most recent N, in chronological order
        self.assertEqual([m["content"] for m in ok("get_conversation", session_id="o", limit=3)["messages"]],
                         ["m22", "m23", "m24"])
        self.assertEqual(len(ok("get_conversation", session_id="o", limit=1)["messages"]), 1)
        self.assertEqual(len(ok("get_conversation", session_id="o", limit=100)["messages"]), 25)
        self.assertEqual(ok("get_conversation", session_id="o", limit=0)["messages"], [])
        self.assertEqual([m["content"] for m in ok("get_conversation", session_id="p")["messages"]], ["other"])

    def test_duplicates_stored_separately(self):
        a = ok("add_message", session_id="d", role="user", content="same")
        b = ok("add_message", session_id="d", role="user", content="same")
        self.assertNotEqual(a["id"], b["id"])
        self.assertEqual(len(ok("get_conversation", session_id="d")["messages"]), 2)

    def test_search(self):
        self.assertEqual(ok("search_messages", query="anything"), [])
        ok("add_message", session_id="a", role="user", content="I love Python programming")
        ok("add_message", session_id="b", role="user", content="python is a snake")
        ok("add_message", session_id="a", role="user", content="The weather is sunny")
        r = ok("search_messages", query="python")
        self.assertEqual([m["content"] for m in r], ["I love Python programming", "python is a snake"])
        r = ok("search_messages", query="python", session_id="b")
        self.assertEqual([m["content"] for m in r], ["python is a snake"])
        self.assertEqual(len(ok("search_messages", query="python", limit=1)), 1)
        self.assertEqual(ok("search_messages", query="quantum chromodynamics", threshold=0.95), [])
        self.assertEqual(ok("search_messages", query="python", limit=0), [])
        # threshold: "python weather" matches each message half
        self.assertEqual(ok("search_messages", query="python weather"), [])
        self.assertEqual(len(ok("search_messages", query="python weather", threshold=0.5)), 3)

    def test_list_sessions(self):
        self.assertEqual(ok("list_sessions"), [])
        ok("add_message", session_id="s1", role="user", content="a")
        self.assertEqual(len(ok("list_sessions")), 1)
        ok("add_message", session_id="s2", role="user", content="a")
        m = ok("add_message", session_id="s2", role="user", content="b")
        ok("add_message", session_id="s3", role="user", content="a")
        ls = ok("list_sessions")
        self.assertEqual([s["session_id"] for s in ls], ["s3", "s2", "s1"])   # newest first
        self.assertEqual({s["session_id"]: s["message_count"] for s in ls}, {"s1": 1, "s2": 2, "s3": 1})
        for s in ls:
            self.assertEqual(set(s), {"session_id", "message_count", "created_at", "updated_at"})
            ts(s["created_at"])
        self.assertEqual(len(ok("list_sessions", limit=2)), 2)
        ok("delete_message", message_id=m["id"])
        self.assertEqual({s["session_id"]: s["message_count"] for s in ok("list_sessions")}["s2"], 1)

    def test_delete_message(self):
        ids = [ok("add_message", session_id="x", role="user", content=f"m{i}")["id"] for i in range(5)]
        self.assertEqual(call("delete_message", message_id=ids[2]), (200, {"deleted": True}))
        self.assertEqual(call("delete_message", message_id=ids[2]), (200, {"deleted": False}))
        self.assertEqual(call("delete_message", message_id=str(uuid.uuid4())), (200, {"deleted": False}))
        ok("delete_message", message_id=ids[0])
        ok("delete_message", message_id=ids[4])
        self.assertEqual([m["content"] for m in ok("get_conversation", session_id="x")["messages"]], ["m1", "m3"])
        ok("add_message", session_id="x", role="user", content="m5")
        self.assertEqual([m["content"] for m in ok("get_conversation", session_id="x")["messages"]],
                         ["m1", "m3", "m5"])
        for m in ok("get_conversation", session_id="x")["messages"]:
            ok("delete_message", message_id=m["id"])
        self.assertEqual(ok("get_conversation", session_id="x")["messages"], [])
        self.assertEqual(ok("search_messages", query="m1"), [])

    def test_clear_session(self):
        ok("add_message", session_id="a", role="user", content="a1")
        ok("add_message", session_id="b", role="user", content="b1")
        tr = ok("start_trace", session_id="a", task="t")
        self.assertEqual(call("clear_session", session_id="a"), (204, None))
        self.assertEqual(call("clear_session", session_id="a"), (204, None))
        self.assertEqual(call("clear_session", session_id="never"), (204, None))
        self.assertEqual(ok("get_conversation", session_id="a")["messages"], [])
        self.assertEqual(len(ok("get_conversation", session_id="b")["messages"]), 1)
        self.assertEqual([s["session_id"] for s in ok("list_sessions")], ["b"])
        self.assertIsNone(ok("get_trace_with_steps", trace_id=tr["id"]))
        ok("add_message", session_id="a", role="user", content="again")
        self.assertEqual([m["content"] for m in ok("get_conversation", session_id="a")["messages"]], ["again"])


class TestLongTerm(Base):
    def test_entities(self):
        for t in ("PERSON", "ORGANIZATION", "LOCATION", "EVENT", "OBJECT"):
            e = ok("add_entity", name=f"n-{t}", entity_type=t, description="d")
            self.assertUUID(e["id"])
            self.assertEqual((e["name"], e["type"], e["description"]), (f"n-{t}", t, "d"))
            self.assertEqual(set(e), {"id", "name", "type", "subtype", "description", "embedding",
                                      "canonical_name", "created_at"})
            ts(e["created_at"])
        self.assertErr("add_entity", name="x", entity_type="person")
        self.assertErr("add_entity", name="x", entity_type="CONCEPT")
        self.assertErr("add_entity", name="", entity_type="PERSON")
        a = ok("add_entity", name="Alice", entity_type="PERSON")
        self.assertIsNone(a["description"])
        a2 = ok("add_entity", name="Alice", entity_type="PERSON", description="CTO")
        self.assertEqual((a2["id"], a2["description"]), (a["id"], "CTO"))
        self.assertEqual(ok("get_entity_by_name", name="Alice")["id"], a["id"])
        self.assertIsNone(ok("get_entity_by_name", name="alice"))
        self.assertIsNone(ok("get_entity_by_name", name="Nobody"))
        u = ok("add_entity", name="Zoë 東京 🎉", entity_type="LOCATION")
        self.assertEqual(ok("get_entity_by_name", name="Zoë 東京 🎉")["id"], u["id"])

    def test_search_entities(self):
        for i in range(15):
            ok("add_entity", name=f"Acme Unit {i}", entity_type="ORGANIZATION")
        ok("add_entity", name="Bob", entity_type="PERSON", description="works at acme")
        self.assertEqual(len(ok("search_entities", query="acme")), 10)
        self.assertEqual(len(ok("search_entities", query="acme", limit=3)), 3)
        self.assertEqual(len(ok("search_entities", query="acme", limit=50)), 16)
        self.assertEqual([e["name"] for e in ok("search_entities", query="Bob")], ["Bob"])
        self.assertEqual(ok("search_entities", query="zzz"), [])

    def test_preferences_and_facts(self):
        p = ok("add_preference", category="food", preference="Likes spicy ramen", context="dinner")
        self.assertUUID(p["id"])
        self.assertEqual((p["category"], p["preference"], p["context"], p["embedding"]),
                         ("food", "Likes spicy ramen", "dinner", None))
        ok("add_preference", category="travel", preference="Prefers window seats for ramen trips")
        self.assertEqual(len(ok("search_preferences", query="ramen")), 2)
        r = ok("search_preferences", query="ramen", category="food")
        self.assertEqual([x["id"] for x in r], [p["id"]])
        self.assertEqual(ok("search_preferences", query="ramen", category="Food"), [])
        f = ok("add_fact", subject="Alice", predicate="WORKS_AT", obj="Acme")
        self.assertUUID(f["id"])
        self.assertEqual((f["subject"], f["predicate"], f["object"]), ("Alice", "WORKS_AT", "Acme"))
        self.assertNotIn("obj", f)

    def test_related(self):
        a = ok("add_entity", name="A", entity_type="PERSON")
        b = ok("add_entity", name="B", entity_type="ORGANIZATION")
        c = ok("add_entity", name="C", entity_type="LOCATION")
        d = ok("add_entity", name="D", entity_type="PERSON")
        self.assertEqual(ok("get_related_entities", entity_id=d["id"]), [])
        r = ok("add_relationship", source_id=a["id"], target_id=b["id"], relationship_type="WORKS_AT",
               properties={"since": 2020})
        self.assertUUID(r["id"])
        self.assertEqual((r["source_id"], r["target_id"], r["relationship_type"], r["properties"]),
                         (a["id"], b["id"], "WORKS_AT", {"since": 2020}))
        ok("add_relationship", source_id=b["id"], target_id=c["id"], relationship_type="LOCATED_AT")
        ok("add_relationship", source_id=a["id"], target_id=b["id"], relationship_type="KNOWS")
        self.assertEqual([e["id"] for e in ok("get_related_entities", entity_id=a["id"])], [b["id"]])
        self.assertEqual([e["id"] for e in ok("get_related_entities", entity_id=b["id"])], [a["id"], c["id"]])
        self.assertEqual([e["id"] for e in ok("get_related_entities", entity_id=a["id"], depth=2)],
                         [b["id"], c["id"]])
        self.assertEqual(ok("get_related_entities", entity_id=a["id"], relationship_type="LOCATED_AT"), [])
        self.assertEqual([e["id"] for e in ok("get_related_entities", entity_id=b["id"],
                                              relationship_type="LOCATED_AT")], [c["id"]])
        self.assertEqual(ok("get_related_entities", entity_id=str(uuid.uuid4())), [])
        self.assertErr("add_relationship", source_id=a["id"], target_id=str(uuid.uuid4()),
                       relationship_type="X")
        self.assertErr("get_related_entities", entity_id=a["id"], depth=0)


class TestReasoning(Base):
    def test_trace_flow(self):
        t = ok("start_trace", session_id="s", task="Find the answer")
        self.assertUUID(t["id"])
        self.assertEqual((t["session_id"], t["task"], t["steps"], t["outcome"], t["success"], t["completed_at"]),
                         ("s", "Find the answer", [], None, None, None))
        ts(t["started_at"])
        s1 = ok("add_step", trace_id=t["id"], thought="think")
        s2 = ok("add_step", trace_id=t["id"], action="act", observation="saw")
        self.assertEqual((s1["step_number"], s2["step_number"]), (1, 2))
        self.assertEqual((s1["trace_id"], s1["thought"], s1["action"], s1["tool_calls"]), (t["id"], "think", None, []))
        tc = ok("record_tool_call", step_id=s1["id"], tool_name="search", arguments={"q": "x"})
        self.assertEqual((tc["status"], tc["result"], tc["duration_ms"], tc["error"]), ("success", None, None, None))
        tc2 = ok("record_tool_call", step_id=s1["id"], tool_name="search", arguments={}, result={"hits": [1, 2]},
                 status="timeout", duration_ms=150, error="slow")
        self.assertEqual((tc2["status"], tc2["result"], tc2["duration_ms"], tc2["error"]),
                         ("timeout", {"hits": [1, 2]}, 150, "slow"))
        self.assertErr("record_tool_call", step_id=s1["id"], tool_name="x", arguments={}, status="done")
        self.assertErr("record_tool_call", step_id=str(uuid.uuid4()), tool_name="x", arguments={})
        self.assertErr("add_step", trace_id=str(uuid.uuid4()))
        done = ok("complete_trace", trace_id=t["id"], outcome="42", success=True)
        self.assertEqual((done["outcome"], done["success"]), ("42", True))
        self.assertGreaterEqual(ts(done["completed_at"]), ts(done["started_at"]))
        full = ok("get_trace_with_steps", trace_id=t["id"])
        self.assertEqual([s["step_number"] for s in full["steps"]], [1, 2])
        self.assertEqual([c["id"] for c in full["steps"][0]["tool_calls"]], [tc["id"], tc2["id"]])
        self.assertIsNone(ok("get_trace_with_steps", trace_id=str(uuid.uuid4())))
        n = ok("start_trace", session_id="s", task="unknown outcome")
        n = ok("complete_trace", trace_id=n["id"], outcome="left open")
        self.assertIsNone(n["success"])
        self.assertIsNone(ok("get_trace_with_steps", trace_id=n["id"])["success"])
        f = ok("start_trace", session_id="s", task="other")
        self.assertEqual(ok("complete_trace", trace_id=f["id"], outcome="nope", success=False)["success"], False)

    def test_list_traces(self):
        ids = [ok("start_trace", session_id=f"s{i % 2}", task=f"t{i}")["id"] for i in range(5)]
        lt = ok("list_traces")
        self.assertEqual([t["id"] for t in lt], list(reversed(ids)))
        self.assertEqual([t["task"] for t in ok("list_traces", session_id="s0")], ["t4", "t2", "t0"])
        self.assertEqual(len(ok("list_traces", limit=2)), 2)
        self.assertEqual([t["task"] for t in ok("list_traces", session_id="s1", limit=1)], ["t3"])

    def test_tool_stats(self):
        t = ok("start_trace", session_id="s", task="t")
        st = ok("add_step", trace_id=t["id"])
        for status, d in (("success", 100), ("success", 200), ("failure", None), ("timeout", 300)):
            ok("record_tool_call", step_id=st["id"], tool_name="web", arguments={}, status=status, duration_ms=d)
        ok("record_tool_call", step_id=st["id"], tool_name="calc", arguments={})
        stats = ok("get_tool_stats")
        self.assertEqual([s["name"] for s in stats], ["calc", "web"])
        web = stats[1]
        self.assertEqual((web["total_calls"], web["successful_calls"], web["failed_calls"]), (4, 2, 2))
        self.assertAlmostEqual(web["success_rate"], 0.5)
        self.assertAlmostEqual(web["avg_duration_ms"], 200.0)
        self.assertIsNone(stats[0]["avg_duration_ms"])
        self.assertEqual([s["name"] for s in ok("get_tool_stats", tool_name="calc")], ["calc"])
        self.assertEqual(ok("get_tool_stats", tool_name="none"), [])


class TestGold(Base):
    def test_merge_duplicate(self):
        a = ok("add_entity", name="Robert", entity_type="PERSON", description="engineer")
        b = ok("add_entity", name="Bob", entity_type="PERSON")
        x = ok("add_entity", name="Acme", entity_type="ORGANIZATION")
        y = ok("add_entity", name="Paris", entity_type="LOCATION")
        ok("add_relationship", source_id=a["id"], target_id=x["id"], relationship_type="WORKS_AT")
        ok("add_relationship", source_id=b["id"], target_id=y["id"], relationship_type="LOCATED_AT")
        ok("add_relationship", source_id=a["id"], target_id=b["id"], relationship_type="KNOWS")
        m = ok("merge_duplicate_entities", source_id=a["id"], target_id=b["id"], canonical_name="Robert Smith")
        self.assertEqual((m["id"], m["canonical_name"], m["description"]), (b["id"], "Robert Smith", "engineer"))
        rel = {e["id"] for e in ok("get_related_entities", entity_id=b["id"])}
        self.assertEqual(rel, {x["id"], y["id"]})
        self.assertIsNone(ok("get_entity_by_name", name="Robert"))
        self.assertErr("merge_duplicate_entities", source_id=a["id"], target_id=b["id"])
        self.assertErr("merge_duplicate_entities", source_id=b["id"], target_id=b["id"])

    def test_similar_traces(self):
        self.assertEqual(ok("get_similar_traces", task="anything"), [])
        t1 = ok("start_trace", session_id="s", task="Find restaurants in Paris")
        t2 = ok("start_trace", session_id="s", task="Find restaurants in London")
        t3 = ok("start_trace", session_id="s", task="Book a flight")
        for t in (t1, t3):
            ok("complete_trace", trace_id=t["id"], success=True)
        ok("complete_trace", trace_id=t2["id"], success=False)
        r = ok("get_similar_traces", task="Find restaurants in Paris")
        self.assertEqual([t["id"] for t in r], [t1["id"]])
        r = ok("get_similar_traces", task="Find restaurants in Paris", success_only=False)
        self.assertEqual([t["id"] for t in r], [t1["id"], t2["id"]])
        self.assertEqual(len(ok("get_similar_traces", task="restaurants", success_only=False, limit=1)), 1)


class TestPlatinum(Base):
    def test_conversations(self):
        c = ok("create_conversation", user_id="u1", metadata={"k": "v"})
        self.assertUUID(c["id"])
        self.assertEqual((c["user_id"], c["metadata"], c["messages"]), ("u1", {"k": "v"}, []))
        self.assertUUID(c["workspace_id"])
        c2 = ok("create_conversation", user_id="u2")
        self.assertNotEqual(c["id"], c2["id"])
        self.assertEqual([x["id"] for x in ok("list_conversations")], [c2["id"], c["id"]])
        self.assertEqual([x["id"] for x in ok("list_conversations", limit=1)], [c2["id"]])
        self.assertEqual(ok("get_conversation_metadata", conversation_id=c["id"])["user_id"], "u1")
        self.assertIsNone(ok("get_conversation_metadata", conversation_id=str(uuid.uuid4())))
        self.assertEqual(call("delete_conversation", conversation_id=c["id"]), (204, None))
        self.assertEqual(call("delete_conversation", conversation_id=c["id"]), (204, None))
        self.assertEqual([x["id"] for x in ok("list_conversations")], [c2["id"]])
        self.assertIsNone(ok("get_conversation_metadata", conversation_id=c["id"]))

    def test_bulk_and_context(self):
        c = ok("create_conversation", user_id="u")
        msgs = [{"role": "user" if i % 2 == 0 else "assistant", "content": f"b{i}"} for i in range(100)]
        out = ok("bulk_add_messages", conversation_id=c["id"], messages=msgs[:25])
        self.assertEqual([m["content"] for m in out], [f"b{i}" for i in range(25)])
        self.assertErr("bulk_add_messages", conversation_id=c["id"], messages=msgs + [msgs[0]])
        self.assertErr("bulk_add_messages", conversation_id=c["id"],
                       messages=[{"role": "user", "content": "ok"}, {"role": "bad", "content": "x"}])
        self.assertErr("bulk_add_messages", conversation_id=str(uuid.uuid4()), messages=msgs[:1])
        self.assertEqual(len(ok("bulk_add_messages", conversation_id=c["id"], messages=msgs)), 100)
        conv = ok("get_conversation", session_id=c["id"])
        self.assertEqual(len(conv["messages"]), 125)
        self.assertEqual(conv["id"], c["id"])
        ctx = ok("get_context", conversation_id=c["id"])
        self.assertEqual(set(ctx), {"reflections", "observations", "recent_messages"})
        self.assertEqual([m["content"] for m in ctx["recent_messages"]], [f"b{i}" for i in range(90, 100)])
        self.assertEqual(len(ctx["observations"]), 12)
        self.assertEqual(len(ctx["reflections"]), 1)
        obs = ok("get_observations", conversation_id=c["id"], limit=2)
        self.assertEqual([o["id"] for o in obs], [o["id"] for o in ctx["observations"][-2:]])
        self.assertEqual(ok("get_reflections", conversation_id=c["id"]), ctx["reflections"])
        new = ok("create_conversation", user_id="u")
        self.assertEqual(ok("get_context", conversation_id=new["id"]),
                         {"reflections": [], "observations": [], "recent_messages": []})
        self.assertEqual(ok("bulk_add_messages", conversation_id=new["id"], messages=[]), [])

    def test_entities(self):
        a = ok("add_entity", name="Alice", entity_type="PERSON")
        b = ok("add_entity", name="Acme", entity_type="ORGANIZATION")
        r = ok("add_relationship", source_id=a["id"], target_id=b["id"], relationship_type="WORKS_AT")
        self.assertEqual([e["id"] for e in ok("list_entities")], [b["id"], a["id"]])
        self.assertEqual([e["id"] for e in ok("list_entities", type="PERSON")], [a["id"]])
        self.assertEqual(len(ok("list_entities", limit=1)), 1)
        g = ok("get_entity", entity_id=a["id"])
        self.assertEqual([x["id"] for x in g["relationships"]], [r["id"]])
        self.assertIsNone(ok("get_entity", entity_id=str(uuid.uuid4())))
        u = ok("update_entity", entity_id=a["id"], name="Alice J", description="CTO")
        self.assertEqual((u["name"], u["description"]), ("Alice J", "CTO"))
        self.assertIsNone(ok("get_entity_by_name", name="Alice"))
        self.assertEqual(ok("get_entity_by_name", name="Alice J")["id"], a["id"])
        self.assertEqual(ok("update_entity", entity_id=a["id"], name="Alice J2")["description"], "CTO")
        self.assertErr("update_entity", entity_id=str(uuid.uuid4()), name="x")
        self.assertEqual(ok("set_entity_feedback", entity_id=a["id"], user_score=0.8, confirmed=True),
                         {"id": a["id"], "updated": True})
        self.assertErr("set_entity_feedback", entity_id=a["id"], user_score=1.5, confirmed=True)
        self.assertErr("set_entity_feedback", entity_id=a["id"], user_score=0.5)
        self.assertEqual(call("delete_entity", entity_id=a["id"]), (204, None))
        self.assertEqual(call("delete_entity", entity_id=a["id"]), (204, None))
        self.assertIsNone(ok("get_entity", entity_id=a["id"]))
        self.assertEqual(ok("get_entity", entity_id=b["id"])["relationships"], [])
        self.assertEqual(ok("get_entity_graph")["edges"], [])

    def test_history_merge_graph(self):
        a = ok("add_entity", name="Alice", entity_type="PERSON")
        al = ok("add_entity", name="Ally", entity_type="PERSON")
        c1 = ok("create_conversation", user_id="u")
        m1 = ok("bulk_add_messages", conversation_id=c1["id"], messages=[{"role": "user", "content": "I met Alice."}])
        ok("add_message", session_id="plain", role="user", content="alice again, and Ally")
        ok("add_message", session_id="plain", role="user", content="Malice is not a mention")
        h = ok("get_entity_history", entity_id=a["id"])
        self.assertEqual(h["entity_id"], a["id"])
        self.assertEqual([x["content"] for x in h["mentions"]], ["I met Alice.", "alice again, and Ally"])
        self.assertEqual(h["mentions"][0]["conversation_id"], c1["id"])
        self.assertEqual(h["mentions"][0]["message_id"], m1[0]["id"])
        ok("delete_message", message_id=m1[0]["id"])
        self.assertEqual(len(ok("get_entity_history", entity_id=a["id"])["mentions"]), 1)
        res = ok("merge_entities", source_id=al["id"], target_id=a["id"])
        self.assertEqual(res, {"source_id": al["id"], "target_id": a["id"], "status": "merged"})
        g = ok("get_entity_graph")
        self.assertEqual({n["id"] for n in g["nodes"]}, {a["id"], al["id"]})
        self.assertEqual([(e["source"], e["target"], e["type"]) for e in g["edges"]], [(al["id"], a["id"], "SAME_AS")])
        ok("merge_entities", source_id=al["id"], target_id=a["id"])
        self.assertEqual(len(ok("get_entity_graph")["edges"]), 1)
        self.assertErr("merge_entities", source_id=a["id"], target_id=str(uuid.uuid4()))
        self.assertIsNone(ok("get_entity_history", entity_id=str(uuid.uuid4())))

    def test_reasoning_provenance(self):
        c = ok("create_conversation", user_id="u")
        other = ok("create_conversation", user_id="u")
        e = ok("add_entity", name="Acme Corp", entity_type="ORGANIZATION")
        s1 = ok("record_step", conversation_id=c["id"], reasoning="Need employer", action_taken="lookup",
                result="Found Acme Corp")
        self.assertUUID(s1["id"])
        self.assertEqual((s1["conversation_id"], s1["reasoning"], s1["action_taken"], s1["result"]),
                         (c["id"], "Need employer", "lookup", "Found Acme Corp"))
        s2 = ok("record_step", conversation_id=c["id"], reasoning="done", action_taken="answer")
        self.assertIsNone(s2["result"])
        ok("record_step", conversation_id=other["id"], reasoning="x", action_taken="y")
        self.assertErr("record_step", conversation_id=str(uuid.uuid4()), reasoning="x", action_taken="y")
        self.assertEqual([s["id"] for s in ok("list_steps", conversation_id=c["id"])], [s1["id"], s2["id"]])
        tc = ok("record_tool_call", step_id=s1["id"], tool_name="db", arguments={"q": 1})
        ex = ok("explain_step", step_id=s1["id"])
        self.assertEqual([t["id"] for t in ex["tool_calls"]], [tc["id"]])
        self.assertEqual([x["id"] for x in ex["influenced_entities"]], [e["id"]])
        self.assertIsNone(ok("explain_step", step_id=str(uuid.uuid4())))
        tr = ok("get_trace_by_conversation", conversation_id=c["id"])
        self.assertEqual(tr["conversation_id"], c["id"])
        self.assertEqual([s["id"] for s in tr["steps"]], [s1["id"], s2["id"]])
        self.assertEqual([t["id"] for t in tr["tool_calls"]], [tc["id"]])
        pv = ok("get_entity_provenance", entity_id=e["id"])
        self.assertEqual((pv["entity_id"], [s["id"] for s in pv["steps"]]), (e["id"], [s1["id"]]))
        self.assertEqual([s["name"] for s in ok("get_tool_stats")], ["db"])
        ok("delete_conversation", conversation_id=c["id"])
        self.assertEqual(ok("list_steps", conversation_id=c["id"]), [])
        self.assertEqual(ok("get_entity_provenance", entity_id=e["id"])["steps"], [])

    def test_cypher(self):
        ok("add_entity", name="Alice", entity_type="PERSON")
        ok("add_entity", name="Bob", entity_type="PERSON")
        ok("add_entity", name="Acme", entity_type="ORGANIZATION")
        r = ok("cypher_query", cypher="MATCH (e:Entity) RETURN count(e) AS n")
        self.assertEqual((r["columns"], r["rows"]), (["n"], [[3]]))
        r = ok("cypher_query", cypher="MATCH (p:Person) WHERE p.name = $n RETURN p.name, p.type", params={"n": "Bob"})
        self.assertEqual((r["columns"], r["rows"]), (["p.name", "p.type"], [["Bob", "PERSON"]]))
        r = ok("cypher_query", cypher="MATCH (e:Entity) RETURN e.name AS name ORDER BY e.name DESC LIMIT 2")
        self.assertEqual(r["rows"], [["Bob"], ["Alice"]])
        r = ok("cypher_query", cypher="RETURN 1 AS one, 'a' AS s")
        self.assertEqual(r["rows"], [[1, "a"]])
        for q in ("CREATE (n:Entity {name: 'x'})", "MATCH (n) DETACH DELETE n", "match (n) set n.x = 1 return n",
                  "MERGE (n:Entity {name: 'x'}) RETURN n", "MATCH (n) REMOVE n.name"):
            body = self.assertErr("cypher_query", cypher=q)
            self.assertIn("write", body["error"])
        r = ok("cypher_query", cypher="MATCH (e:Entity) WHERE e.name = 'CREATE' RETURN count(*) AS c")
        self.assertEqual(r["rows"], [[0]])
        self.assertEqual(ok("cypher_query", cypher="MATCH (e:Entity) RETURN count(*) AS c")["rows"], [[3]])

    def cypher_graph(self):
        # Ann, Ben: PERSON; Cat: ORGANIZATION; Dan: OBJECT. Six relationships, one a self-loop:
        # Ann-KNOWS->Ben, Ben-KNOWS->Ann, Ann-WORKS_AT{since: 2020}->Cat, Ben-WORKS_AT->Cat, Cat-OWNS->Dan, Dan-LOOPS->Dan
        ids = {}
        for name, t in (("Ann", "PERSON"), ("Ben", "PERSON"), ("Cat", "ORGANIZATION"), ("Dan", "OBJECT")):
            ids[name] = ok("add_entity", name=name, entity_type=t)["id"]
        for a, t, b, props in (("Ann", "KNOWS", "Ben", None), ("Ben", "KNOWS", "Ann", None),
                               ("Ann", "WORKS_AT", "Cat", {"since": 2020}), ("Ben", "WORKS_AT", "Cat", None),
                               ("Cat", "OWNS", "Dan", None), ("Dan", "LOOPS", "Dan", None)):
            extra = {"properties": props} if props else {}
            ok("add_relationship", source_id=ids[a], target_id=ids[b], relationship_type=t, **extra)
        return ids

    def cy_rows(self, cypher, **params):
        r = ok("cypher_query", cypher=cypher, params=params)
        return r["rows"]

    def test_cypher_relationship_counts(self):
        self.cypher_graph()
        counts = {
            # directed: each relationship once; incoming = outgoing
            "MATCH (a)-[r]->(b) RETURN count(r) AS c": 6,
            "MATCH (a)<-[r]-(b) RETURN count(r) AS c": 6,
            "MATCH ()-->() RETURN count(*) AS c": 6,
            "MATCH ()<--() RETURN count(*) AS c": 6,
            # undirected: twice for each of the 5 relationships between distinct nodes, once for the loop
            "MATCH (a)-[r]-(b) RETURN count(r) AS c": 11,
            "MATCH ()--() RETURN count(*) AS c": 11,
            "MATCH (a)-[:KNOWS]-(b) RETURN count(*) AS c": 4,
            # types
            "MATCH (a)-[r:KNOWS]->(b) RETURN count(r) AS c": 2,
            "MATCH (a)-[r:WORKS_AT|OWNS]->(b) RETURN count(r) AS c": 3,
            "MATCH (a)-[r:MISSING]->(b) RETURN count(r) AS c": 0,
            # labels, case-insensitive; Entity is every entity; other kinds of node have no relationships
            "MATCH (a:Person)-[r]->(b) RETURN count(r) AS c": 4,
            "MATCH (a:person)-[r]-(b:PERSON) RETURN count(r) AS c": 4,
            "MATCH (a:Entity)-[r]->(b:Entity) RETURN count(r) AS c": 6,
            "MATCH (a)<-[r]-(b:Organization) RETURN count(r) AS c": 1,
            "MATCH (a:Conversation)-[r]->(b) RETURN count(r) AS c": 0,
            # property maps on nodes and relationships
            "MATCH (a {name: 'Ann'})-[r]-(b) RETURN count(r) AS c": 3,
            "MATCH (a)-[r {since: 2020}]->(b) RETURN count(*) AS c": 1,
            # WHERE ... AND ... over every bound variable
            "MATCH (a)-[r]-(b) WHERE a.name = 'Ann' AND b.name = 'Ben' RETURN count(r) AS c": 2,
            "MATCH (a)-[r]->(b) WHERE a.name = 'Ann' AND b.name = 'Ben' RETURN count(r) AS c": 1,
            "MATCH (a)-[r]->(b) WHERE b.name = 'Cat' AND r.since >= 2020 RETURN count(r) AS c": 1,
            "MATCH (a)-[r]->(b) WHERE type(r) = 'KNOWS' AND a.type = 'PERSON' RETURN count(*) AS c": 2,
            # the same variable at both ends: the self-loop only
            "MATCH (a)-[r]-(a) RETURN count(r) AS c": 1,
            # node counts stay as they were
            "MATCH (n) RETURN count(*) AS c": 4,
            "MATCH (n:Person) RETURN count(n) AS c": 2,
            "MATCH (n) WHERE n.name = 'Ann' AND n.name = 'Ann' RETURN count(n) AS c": 1,
            "MATCH (n) WHERE n.name = 'Ann' AND n.name = 'Ben' RETURN count(n) AS c": 0,
        }
        for cypher, want in counts.items():
            self.assertEqual(self.cy_rows(cypher), [[want]], cypher)
        self.assertEqual(self.cy_rows("MATCH (a)-[r]-(b) WHERE a.name = $x AND b.name = $y RETURN count(r) AS c",
                                      x="Cat", y="Ann"), [[1]])

    def test_cypher_relationship_values(self):
        ids = self.cypher_graph()
        self.assertEqual(self.cy_rows("MATCH (a)-[r]->(b:Organization) RETURN a.name, type(r) ORDER BY a.name"),
                         [["Ann", "WORKS_AT"], ["Ben", "WORKS_AT"]])
        self.assertEqual(self.cy_rows("MATCH (a)-[r]->(b) WHERE a.name = 'Ann' AND type(r) = 'WORKS_AT' "
                                      "RETURN b.name, r.since, r.type"), [["Cat", 2020, "WORKS_AT"]])
        # undirected: each end in turn as a
        self.assertEqual(self.cy_rows("MATCH (a)-[:OWNS]-(b) RETURN a.name, b.name ORDER BY a.name"),
                         [["Cat", "Dan"], ["Dan", "Cat"]])
        self.assertEqual(self.cy_rows("MATCH (a)-[r]-(a) RETURN a.name, type(r)"), [["Dan", "LOOPS"]])
        [[rel]] = self.cy_rows("MATCH (a)-[r:OWNS]->(b) RETURN r")
        self.assertEqual((rel["type"], rel["relationship_type"], rel["source_id"], rel["target_id"]),
                         ("OWNS", "OWNS", ids["Cat"], ids["Dan"]))
        self.assertUUID(rel["id"])
        self.assertEqual(self.cy_rows("MATCH (a)-[r]->(b) RETURN type(r) AS t, count(*) AS c ORDER BY t"),
                         [["KNOWS", 2], ["LOOPS", 1], ["OWNS", 1], ["WORKS_AT", 2]])
        # merge_entities' SAME_AS link is a relationship too
        eve = ok("add_entity", name="Eve", entity_type="OBJECT")["id"]
        ok("merge_entities", source_id=eve, target_id=ids["Dan"])
        self.assertEqual(self.cy_rows("MATCH (a)-[:SAME_AS]->(b) RETURN a.name, b.name"), [["Eve", "Dan"]])
        self.assertEqual(self.cy_rows("MATCH (a)-[r:SAME_AS]-(b) RETURN count(r) AS c"), [[2]])

    def test_cypher_relationship_refusals(self):
        self.cypher_graph()
        for q in ("MATCH (a)-[r]->(b) DELETE r", "MATCH (a)-[r]->(b) SET r.x = 1 RETURN r",
                  "match (a)-[r:KNOWS]->(b) detach delete a", "MATCH (a)-[r]->(b) MERGE (a)-[:X]->(b)"):
            self.assertIn("write", self.assertErr("cypher_query", cypher=q)["error"], q)
        for q in ("MATCH (a)-[r*1..2]->(b) RETURN count(r)", "MATCH (a)-[a]->(b) RETURN count(a)",
                  "MATCH (a)-[r]->(b)-[s]->(c) RETURN count(*)", "MATCH (a)-[r]>(b) RETURN r",
                  "MATCH (a)-[r]->(b) RETURN type(a)"):
            self.assertErr("cypher_query", cypher=q)
        self.assertEqual(self.cy_rows("MATCH (a)-[r]->(b) RETURN count(r) AS c"), [[6]])

    def test_cypher_relationship_work_is_bounded(self):
        # in-process: a bound of 4 candidates refuses the undirected pattern over 3 relationships (6 candidates),
        # not the directed one (3) nor the undirected one narrowed to the 2 of type X (4)
        import importlib.util
        spec = importlib.util.spec_from_file_location("blind_bridge_server", os.path.join(HERE, "server.py"))
        srv = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(srv)
        srv.CY_MAX_CANDIDATES = 4
        a = srv.m_add_entity(srv.Params({"name": "A", "entity_type": "OBJECT"}))["id"]
        b = srv.m_add_entity(srv.Params({"name": "B", "entity_type": "OBJECT"}))["id"]
        for t in ("X", "X", "Y"):
            srv.m_add_relationship(srv.Params({"source_id": a, "target_id": b, "relationship_type": t}))
        self.assertEqual(srv.cypher_run("MATCH (a)-[r]->(b) RETURN count(r) AS c", {})["rows"], [[3]])
        self.assertEqual(srv.cypher_run("MATCH (a)-[r:X]-(b) RETURN count(r) AS c", {})["rows"], [[4]])
        with self.assertRaises(srv.ApiError) as caught:
            srv.cypher_run("MATCH (a)-[r]-(b) RETURN count(r) AS c", {})
        self.assertIn("candidates", str(caught.exception))


class TestHistories(Base):
    """Reads after writes, deletes, merges; filters beside limits; value classes."""

    def test_session_ids_are_case_sensitive(self):
        ok("add_message", session_id="Alpha", role="user", content="upper")
        ok("add_message", session_id="alpha", role="user", content="lower")
        ok("clear_session", session_id="alpha")
        self.assertEqual([m["content"] for m in ok("get_conversation", session_id="Alpha")["messages"]], ["upper"])
        self.assertEqual([s["session_id"] for s in ok("list_sessions")], ["Alpha"])

    def test_session_filter_is_exact(self):
        ok("add_message", session_id="s1", role="user", content="kiwi one")
        ok("add_message", session_id="s10", role="user", content="kiwi ten")
        self.assertEqual([m["content"] for m in ok("search_messages", query="kiwi", session_id="s1")], ["kiwi one"])

    def test_search_limit_beside_filter(self):
        for i in range(12):
            ok("add_message", session_id="n", role="user", content=f"noise {i}")
        ok("add_message", session_id="n", role="user", content="the mango arrived")
        self.assertEqual([m["content"] for m in ok("search_messages", query="mango", limit=2)], ["the mango arrived"])

    def test_long_multibyte_content(self):
        c = ("é" * 40000) + ("🎉" * 5000) + "end"
        m = ok("add_message", session_id="L", role="user", content=c)
        self.assertEqual(m["content"], c)
        self.assertEqual(ok("get_conversation", session_id="L")["messages"][0]["content"], c)

    def test_limit_page_after_delete(self):
        ids = [ok("add_message", session_id="p", role="user", content=f"m{i}")["id"] for i in range(4)]
        self.assertEqual([m["content"] for m in ok("get_conversation", session_id="p", limit=2)["messages"]],
                         ["m2", "m3"])
        ok("delete_message", message_id=ids[3])
        self.assertEqual([m["content"] for m in ok("get_conversation", session_id="p", limit=2)["messages"]],
                         ["m1", "m2"])

    def test_middle_delete_keeps_order(self):
        ids = [ok("add_message", session_id="c", role="user", content=f"m{i}")["id"] for i in range(5)]
        ok("delete_message", message_id=ids[1])
        self.assertEqual([m["content"] for m in ok("get_conversation", session_id="c")["messages"]],
                         ["m0", "m2", "m3", "m4"])

    def test_preference_context_persisted(self):
        ok("add_preference", category="style", preference="Short answers", context="work chat")
        self.assertEqual([p["context"] for p in ok("search_preferences", query="short answers")], ["work chat"])

    def test_two_types_between_one_pair(self):
        a = ok("add_entity", name="P", entity_type="PERSON")
        b = ok("add_entity", name="Q", entity_type="PERSON")
        r1 = ok("add_relationship", source_id=a["id"], target_id=b["id"], relationship_type="KNOWS")
        r2 = ok("add_relationship", source_id=a["id"], target_id=b["id"], relationship_type="WORKS_WITH")
        self.assertNotEqual(r1["id"], r2["id"])
        self.assertEqual(r2["relationship_type"], "WORKS_WITH")
        self.assertEqual([e["id"] for e in ok("get_related_entities", entity_id=a["id"],
                                              relationship_type="WORKS_WITH")], [b["id"]])
        self.assertEqual(sorted(e["type"] for e in ok("get_entity_graph")["edges"]), ["KNOWS", "WORKS_WITH"])

    def test_similar_traces_case_and_limit_beside_filter(self):
        bad = ok("start_trace", session_id="s", task="Find restaurants in Paris")
        good = ok("start_trace", session_id="s", task="Find restaurants in London")
        ok("complete_trace", trace_id=bad["id"], success=False)
        ok("complete_trace", trace_id=good["id"], success=True)
        self.assertEqual([t["id"] for t in ok("get_similar_traces", task="Find restaurants in Paris", limit=1)],
                         [good["id"]])
        self.assertEqual([t["id"] for t in ok("get_similar_traces", task="FIND RESTAURANTS IN LONDON")],
                         [good["id"]])

    def test_step_numbers_with_partial_fields(self):
        t = ok("start_trace", session_id="s", task="t")
        nums = [ok("add_step", trace_id=t["id"], action=f"a{i}")["step_number"] for i in range(3)]
        nums.append(ok("add_step", trace_id=t["id"], thought="x")["step_number"])
        self.assertEqual(nums, [1, 2, 3, 4])

    def test_tool_call_value_types(self):
        t = ok("start_trace", session_id="s", task="t")
        st = ok("add_step", trace_id=t["id"])
        tc = ok("record_tool_call", step_id=st["id"], tool_name="x", arguments={"q": "x", "n": [1, {"a": None}]},
                duration_ms=7)
        self.assertEqual(tc["arguments"], {"q": "x", "n": [1, {"a": None}]})
        self.assertIs(type(tc["duration_ms"]), int)
        got = ok("get_trace_with_steps", trace_id=t["id"])["steps"][0]["tool_calls"][0]
        self.assertEqual(got["arguments"], tc["arguments"])
        self.assertIs(type(got["duration_ms"]), int)
        self.assertErr("record_tool_call", step_id=st["id"], tool_name="x", arguments={}, duration_ms=1.5)

    def test_context_after_new_messages(self):
        c = ok("create_conversation", user_id="u")
        ok("bulk_add_messages", conversation_id=c["id"], messages=[{"role": "user", "content": "one"}])
        self.assertEqual([m["content"] for m in ok("get_context", conversation_id=c["id"])["recent_messages"]],
                         ["one"])
        ok("add_message", session_id=c["id"], role="assistant", content="two")
        self.assertEqual([m["content"] for m in ok("get_context", conversation_id=c["id"])["recent_messages"]],
                         ["one", "two"])

    def test_conversation_trace_all_steps_tool_calls(self):
        c = ok("create_conversation", user_id="u")
        s1 = ok("record_step", conversation_id=c["id"], reasoning="r1", action_taken="a1")
        s2 = ok("record_step", conversation_id=c["id"], reasoning="r2", action_taken="a2")
        t1 = ok("record_tool_call", step_id=s1["id"], tool_name="x", arguments={})
        t2 = ok("record_tool_call", step_id=s2["id"], tool_name="y", arguments={})
        t3 = ok("record_tool_call", step_id=s2["id"], tool_name="y", arguments={}, status="error")
        tr = ok("get_trace_by_conversation", conversation_id=c["id"])
        self.assertEqual([t["id"] for t in tr["tool_calls"]], [t1["id"], t2["id"], t3["id"]])
        self.assertEqual([t["id"] for t in ok("explain_step", step_id=s2["id"])["tool_calls"]], [t2["id"], t3["id"]])


if __name__ == "__main__":
    start_server()
    try:
        prog = unittest.main(exit=False, verbosity=1)
        rc = 0 if prog.result.wasSuccessful() else 1
    finally:
        stop_server()
    sys.exit(rc)
