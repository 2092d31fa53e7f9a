#!/usr/bin/env python3
"""For every fault of the second batch (FAULTS-2.md): a probe that passes on the correct server and
fails under the fault.

python3 faultcheck.py            (all probes)   python3 faultcheck.py <fault-id> ...
Each probe runs against a fresh server started with INDEPENDENT_FAULT unset, then against one started with
INDEPENDENT_FAULT=<fault-id>. A line "OK" means: passes on the correct server, fails under the fault.
"""

import http.client
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PORT = None


def start(fault):
    env = dict(os.environ)
    env.pop("INDEPENDENT_FAULT", None)
    if fault:
        env["INDEPENDENT_FAULT"] = fault
    proc = subprocess.Popen([sys.executable, os.path.join(HERE, "server.py"), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    m = re.fullmatch(r"listening on http://127\.0\.0\.1:(\d+)", proc.stdout.readline().strip())
    if not m:
        proc.kill()
        raise RuntimeError("server did not start")
    return proc, int(m.group(1))


def call(_m, **params):
    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
    try:
        conn.request("POST", "/" + _m, body=json.dumps(params).encode(),
                     headers={"Content-Type": "application/json"})
        r = conn.getresponse()
        data = r.read()
        return r.status, (json.loads(data) if data else None)
    finally:
        conn.close()


def ok_(_m, **params):
    s, b = call(_m, **params)
    if s not in (200, 204):
        raise AssertionError(f"{_m} -> {s} {b}")
    return b


def ok(cond, msg):
    if not cond:
        raise AssertionError(msg)


def msgs(session, **kw):
    return ok_("get_conversation", session_id=session, **kw)["messages"]


def ent(name, t="PERSON", **kw):
    return ok_("add_entity", name=name, entity_type=t, **kw)


def step_with_trace(session="s", task="t"):
    t = ok_("start_trace", session_id=session, task=task)
    return t, ok_("add_step", trace_id=t["id"], thought="x")


# ---------------- Bronze ----------------

def p_content_crlf_normalized():
    ok_("add_message", session_id="s", role="user", content="line1\r\nline2\r\n")
    ok(msgs("s")[0]["content"] == "line1\r\nline2\r\n", "CR LF must be preserved (SPEC-2.1.10)")


def p_empty_content_rejected():
    s, b = call("add_message", session_id="s", role="user", content="")
    ok(s == 200 and b["content"] == "", f"empty content must be accepted (SPEC-2.1.7): {s} {b}")


def p_system_role_stored_as_user():
    ok_("add_message", session_id="s", role="system", content="be brief")
    ok(msgs("s")[0]["role"] == "system", "role must match the input role (SPEC-1.1.12)")


def p_metadata_nested_flattened():
    md = {"a": {"b": [1, {"c": "d"}]}, "n": 1}
    ok_("add_message", session_id="s", role="user", content="x", metadata=md)
    ok(msgs("s")[0]["metadata"] == md, "nested metadata preserved (SPEC-2.1.12)")


def p_conversation_limit_zero_all():
    for i in range(3):
        ok_("add_message", session_id="s", role="user", content=f"m{i}")
    ok(len(msgs("s", limit=0)) == 0, "limit=0 must return no message (SPEC-2.2.2)")


def p_conversation_id_casefold_collision():
    ok_("add_message", session_id="Room", role="user", content="a")
    ok_("add_message", session_id="room", role="user", content="b")
    a = ok_("get_conversation", session_id="Room")["id"]
    b = ok_("get_conversation", session_id="room")["id"]
    ok(a != b, "different sessions must have distinct conversation ids (SPEC-1.1.9)")


def p_search_threshold_ignored():
    ok_("add_message", session_id="s", role="user", content="alpha beta gamma")
    ok(ok_("search_messages", query="alpha zeta", threshold=0.9) == [],
       "a half match must not pass threshold 0.9 (SPEC-2.3.4)")


def p_search_all_sessions_latest_only():
    ok_("add_message", session_id="s1", role="user", content="kiwi one")
    ok_("add_message", session_id="s2", role="user", content="kiwi two")
    ok(len(ok_("search_messages", query="kiwi")) == 2, "no session_id: all sessions (SPEC-2.3.7)")


def p_list_sessions_limit_ignored():
    for s in ("a", "b", "c"):
        ok_("add_message", session_id=s, role="user", content="x")
    ok(len(ok_("list_sessions", limit=2)) == 2, "list_sessions limit (SPEC-2.4.5)")


def p_delete_first_resets_head():
    ids = [ok_("add_message", session_id="s", role="user", content=f"m{i}")["id"] for i in range(4)]
    ok_("delete_message", message_id=ids[0])
    ok([m["id"] for m in msgs("s")] == ids[1:], "deleting the first keeps the rest (SPEC-2.5.5)")


def p_clear_session_search_index_stale():
    ok_("add_message", session_id="s", role="user", content="pineapple secret")
    ok_("clear_session", session_id="s")
    ok(ok_("search_messages", query="pineapple") == [], "cleared messages are gone (SPEC-2.6.1)")


def p_clear_session_orphans_new_messages():
    ok_("add_message", session_id="s", role="user", content="old")
    ok_("clear_session", session_id="s")
    ok_("add_message", session_id="s", role="user", content="new")
    ok([m["content"] for m in msgs("s")] == ["new"], "a cleared session accepts new messages (SPEC-2.6.4)")


def p_add_message_lost_update():
    import threading
    ok_("add_message", session_id="busy", role="user", content="seed")
    errs = []

    def go(i):
        try:
            ok_("add_message", session_id="busy", role="user", content=f"c{i}")
        except Exception as e:  # noqa: BLE001
            errs.append(e)
    ts = [threading.Thread(target=go, args=(i,)) for i in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    got = msgs("busy")
    ok(not errs and len(got) == 5, f"all concurrently added messages stored (SPEC-2.1.16): {len(got)}")

# ---------------- Silver ----------------

def p_search_preferences_limit_before_category():
    ok_("add_preference", category="drinks", preference="green tea")
    ok_("add_preference", category="food", preference="tea cake")
    r = ok_("search_preferences", query="tea", category="food", limit=1)
    ok([x["category"] for x in r] == ["food"], "category filter with limit (SPEC-3.5.2)")


def p_entity_merge_on_name_only():
    a = ent("Jordan", "LOCATION")
    b = ent("Jordan", "PERSON")
    ok(b["type"] == "PERSON" and b["id"] != a["id"], "PERSON label preserved for a namesake (SPEC-1.2.3)")


def p_entity_description_varchar255():
    d = "d" * 300 + " end"
    ent("Longdesc", description=d)
    ok(ok_("get_entity_by_name", name="Longdesc")["description"] == d, "description stored (SPEC-3.1.2)")


def p_fact_predicate_as_rel_type():
    f = ok_("add_fact", subject="Alice", predicate="works at", obj="Acme")
    ok(f["predicate"] == "works at", "predicate returned as given (SPEC-3.3.1)")


def p_preference_upsert_by_category():
    a = ok_("add_preference", category="food", preference="likes sushi")
    b = ok_("add_preference", category="food", preference="likes ramen")
    r = ok_("search_preferences", query="likes", category="food")
    ok({x["id"] for x in r} == {a["id"], b["id"]}, "both preferences stored (SPEC-3.2.3)")


def p_tool_call_falsy_result_null():
    t, s = step_with_trace()
    tc = ok_("record_tool_call", step_id=s["id"], tool_name="count", arguments={}, result=0)
    tr = ok_("get_trace_with_steps", trace_id=t["id"])
    ok(tc["result"] == 0 and tr["steps"][0]["tool_calls"][0]["result"] == 0, "result 0 stored (SPEC-4.3.2)")


def p_tool_stats_avg_null_as_zero():
    t, s = step_with_trace()
    ok_("record_tool_call", step_id=s["id"], tool_name="web", arguments={}, duration_ms=100)
    ok_("record_tool_call", step_id=s["id"], tool_name="web", arguments={})
    st = ok_("get_tool_stats", tool_name="web")[0]
    ok(st["avg_duration_ms"] == 100, f"average over calls with a duration (SPEC-4.7.1): {st}")


def p_tool_stats_group_casefold():
    t, s = step_with_trace()
    ok_("record_tool_call", step_id=s["id"], tool_name="Search", arguments={})
    ok_("record_tool_call", step_id=s["id"], tool_name="search", arguments={}, status="failure")
    st = {x["name"]: x["total_calls"] for x in ok_("get_tool_stats")}
    ok(st == {"Search": 1, "search": 1}, f"two tools, two stats (SPEC-4.7.1): {st}")


def p_list_traces_steps_not_joined():
    t, s = step_with_trace("lt")
    r = ok_("list_traces", session_id="lt")
    ok(len(r) == 1 and [x["id"] for x in r[0]["steps"]] == [s["id"]], "trace steps listed (ReasoningTrace.steps)")


def p_trace_steps_string_sort():
    t = ok_("start_trace", session_id="s", task="long")
    for i in range(11):
        ok_("add_step", trace_id=t["id"], thought=f"t{i}")
    nums = [x["step_number"] for x in ok_("get_trace_with_steps", trace_id=t["id"])["steps"]]
    ok(nums == list(range(1, 12)), f"steps in order (SPEC-4.2.2, 4.5.1): {nums}")


def p_search_entities_limit_zero_default():
    ent("Zed One")
    ok(ok_("search_entities", query="zed", limit=0) == [], "limit=0 -> nothing (SPEC-3.4.2)")


def p_related_entities_type_filter_ignored():
    a, b, c = ent("A1"), ent("B1"), ent("C1", "ORGANIZATION")
    ok_("add_relationship", source_id=a["id"], target_id=b["id"], relationship_type="KNOWS")
    ok_("add_relationship", source_id=a["id"], target_id=c["id"], relationship_type="WORKS_AT")
    r = ok_("get_related_entities", entity_id=a["id"], relationship_type="KNOWS")
    ok([x["id"] for x in r] == [b["id"]], "relationship_type filters (BA get_related_entities)")


# ---------------- Gold ----------------

def p_related_entities_reversed_direction():
    a, b = ent("Src"), ent("Dst")
    ok_("add_relationship", source_id=a["id"], target_id=b["id"], relationship_type="KNOWS")
    ok([x["id"] for x in ok_("get_related_entities", entity_id=a["id"])] == [b["id"]],
       "discoverable from the source (SPEC-5.2.2)")


def p_merge_relationship_direction_flipped():
    x, s, t = ent("Xavier"), ent("Bob"), ent("Robert")
    ok_("add_relationship", source_id=x["id"], target_id=s["id"], relationship_type="KNOWS")
    ok_("merge_duplicate_entities", source_id=s["id"], target_id=t["id"])
    rels = ok_("get_entity", entity_id=t["id"])["relationships"]
    ok([(r["source_id"], r["target_id"], r["relationship_type"]) for r in rels] == [(x["id"], t["id"], "KNOWS")],
       f"X -KNOWS-> merged entity retained as is (SPEC-5.3.2): {rels}")


def p_similar_traces_limit_ignored_unfiltered():
    for i in range(3):
        ok_("start_trace", session_id="s", task=f"plan a trip {i}")
    ok(len(ok_("get_similar_traces", task="plan a trip", limit=1, success_only=False)) == 1,
       "limit respected (SPEC-5.4.2)")


def p_clear_session_deletes_mentioned_entities():
    ent("Zorblax")
    ok_("add_message", session_id="agent1", role="user", content="I met Zorblax today")
    ok_("clear_session", session_id="agent1")
    ok(ok_("get_entity_by_name", name="Zorblax") is not None, "entities are shared across sessions (SPEC-5.5.3)")


def p_list_traces_session_casefold():
    ok_("start_trace", session_id="Agent", task="x")
    ok_("start_trace", session_id="agent", task="y")
    r = ok_("list_traces", session_id="agent")
    ok([x["task"] for x in r] == ["y"], "per-agent isolation by session (SPEC-5.5.2)")


def p_graph_parallel_edges_collapsed():
    a, b = ent("P1"), ent("P2")
    ok_("add_relationship", source_id=a["id"], target_id=b["id"], relationship_type="KNOWS")
    ok_("add_relationship", source_id=a["id"], target_id=b["id"], relationship_type="WORKS_WITH")
    g = ok_("get_entity_graph")
    ok(sorted(e["type"] for e in g["edges"]) == ["KNOWS", "WORKS_WITH"], "both edges shown (SPEC-5.2.3, 5.3.4)")


# ---------------- Platinum ----------------

def p_conversation_user_id_lowercased():
    c = ok_("create_conversation", user_id="User-ABC")
    ok(c["user_id"] == "User-ABC", "the supplied user_id (SPEC-5.1.1)")


def p_list_conversations_by_activity():
    c1 = ok_("create_conversation", user_id="u")
    c2 = ok_("create_conversation", user_id="u")
    ok_("add_message", session_id=c1["id"], role="user", content="later activity")
    ok([c["id"] for c in ok_("list_conversations")] == [c2["id"], c1["id"]], "newest-first (SPEC-5.1.2)")


def p_bulk_metadata_first_item():
    c = ok_("create_conversation", user_id="u")
    r = ok_("bulk_add_messages", conversation_id=c["id"], messages=[
        {"role": "user", "content": "a", "metadata": {"i": 1}},
        {"role": "user", "content": "b", "metadata": {"i": 2}},
        {"role": "user", "content": "c"}])
    got = [m["metadata"] for m in msgs(c["id"])]
    ok([m["metadata"] for m in r] == [{"i": 1}, {"i": 2}, {}] and got == [{"i": 1}, {"i": 2}, {}],
       f"each message keeps its metadata (SPEC-2.1.5/2.1.13): {got}")


def p_context_recent_first_n():
    c = ok_("create_conversation", user_id="u")
    ok_("bulk_add_messages", conversation_id=c["id"],
        messages=[{"role": "user", "content": f"m{i}"} for i in range(12)])
    r = ok_("get_context", conversation_id=c["id"])["recent_messages"]
    ok(r[-1]["content"] == "m11" and "m0" not in [m["content"] for m in r], "the most recent messages (MM)")


def p_feedback_updated_always_true():
    import uuid
    r = ok_("set_entity_feedback", entity_id=str(uuid.uuid4()), user_score=0.5, confirmed=True)
    ok(r["updated"] is False, "nothing updated for an unknown entity (SPEC-5.3.1)")


def p_history_includes_deleted_messages():
    e = ent("Quokka")
    c = ok_("create_conversation", user_id="u")
    m = ok_("add_message", session_id=c["id"], role="user", content="a Quokka smiled")
    ok_("delete_message", message_id=m["id"])
    ok(ok_("get_entity_history", entity_id=e["id"])["mentions"] == [], "a deleted message is no mention")


def p_explain_step_conversation_tool_calls():
    c = ok_("create_conversation", user_id="u")
    s1 = ok_("record_step", conversation_id=c["id"], reasoning="r1", action_taken="a1")
    s2 = ok_("record_step", conversation_id=c["id"], reasoning="r2", action_taken="a2")
    t1 = ok_("record_tool_call", step_id=s1["id"], tool_name="x", arguments={})
    ok_("record_tool_call", step_id=s2["id"], tool_name="y", arguments={})
    ok([t["id"] for t in ok_("explain_step", step_id=s1["id"])["tool_calls"]] == [t1["id"]],
       "the step's own tool calls (SPEC-5.4.2)")


def p_record_step_result_lost():
    c = ok_("create_conversation", user_id="u")
    ok_("record_step", conversation_id=c["id"], reasoning="r", action_taken="a", result="done: 42")
    ok([s["result"] for s in ok_("list_steps", conversation_id=c["id"])] == ["done: 42"],
       "the step is persisted with its result (SPEC-5.4.1)")


def p_cypher_limit_before_order():
    for n in ("Carol", "Alice", "Bob"):
        ent(n)
    r = ok_("cypher_query", cypher="MATCH (e:Entity) RETURN e.name AS n ORDER BY e.name LIMIT 1")
    ok(r["rows"] == [["Alice"]], f"ORDER BY before LIMIT (SPEC-5.5.1): {r}")


PROBES = {name[2:].replace("_", "-"): fn for name, fn in dict(globals()).items() if name.startswith("p_")}


def run_probe(probe):
    ok_("clear_all_data")
    try:
        probe()
        return True, ""
    except AssertionError as e:
        return False, str(e)[:160]
    except Exception as e:  # noqa: BLE001
        return False, f"{type(e).__name__}: {e}"[:160]


def main():
    global PORT
    names = sys.argv[1:] or list(PROBES)
    good_proc, good_port = start(None)
    bad = 0
    try:
        for n in names:
            PORT = good_port
            good, why = run_probe(PROBES[n])
            proc, PORT = start(n)
            try:
                faulty, why_f = run_probe(PROBES[n])
            finally:
                proc.terminate()
                proc.wait(5)
                proc.stdout.close()
            if not (good and not faulty):
                bad += 1
            print(f"{'OK ' if good and not faulty else 'BAD'} {n:44s} correct={'pass' if good else 'FAIL ' + why}  "
                  f"fault={'FAIL (' + why_f + ')' if not faulty else 'pass (undetected)'}")
    finally:
        good_proc.terminate()
        good_proc.wait(5)
        good_proc.stdout.close()
    print(f"{len(names) - bad} passed, {bad} failed")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
