#!/usr/bin/env python3
"""For every fault (FAULTS.md and FAULTS-2.md): a probe that passes on the correct server and fails under the fault.
python3 faultcheck.py            (all faults)   python3 faultcheck.py <fault-id> ...
"""

import base64
import json
import sys
import uuid

import selftest as T
from selftest import req


def ok(cond, msg):
    if not cond:
        raise AssertionError(msg)


def new_conv(uid="u"):
    return req("POST", "/v1/conversations", {"userId": uid})[1]


def add(cid, content, role="user"):
    return req("POST", f"/v1/conversations/{cid}/messages", {"role": role, "content": content})


def p_revoke_cached():
    s, k, _ = req("POST", "/v1/auth/api-keys", {"label": "r", "scopes": ["read"]})
    ok(req("GET", "/v1/conversations", token=k["key"])[0] == 200, "fresh key works")
    req("DELETE", f"/v1/auth/api-keys/{k['id']}")
    ok(req("GET", "/v1/conversations", token=k["key"])[0] == 401, "revoked key must be rejected at once")


def p_key_lifetime_weeks():
    ok(req("GET", "/v1/conversations", token=T.INFO["expired_api_key"])[0] == 401,
       "key issued 91 days ago must be expired")


def p_reveal_cross_workspace():
    s, k, _ = req("POST", "/v1/auth/api-keys", {"label": "x", "scopes": ["read"]})
    s, b, _ = req("GET", f"/v1/auth/api-keys/{k['id']}/reveal", token=T.INFO["other_api_key"])
    ok(s >= 400 and (not b or b.get("key") != k["key"]), "reveal from another workspace must fail")


def p_jwt_leeway_units():
    ok(req("GET", "/v1/conversations", token=T.INFO["expired_token"])[0] == 401,
       "expired access token must be rejected")


def p_refresh_reuse():
    _, t, _ = req("POST", "/v1/auth/exchange", {"idpToken": T.INFO["idp_token"]}, token=None)
    ok(req("POST", "/v1/auth/refresh", {"refreshToken": t["refresh_token"]}, token=None)[0] == 200, "1st")
    ok(req("POST", "/v1/auth/refresh", {"refreshToken": t["refresh_token"]}, token=None)[0] == 401,
       "a rotated refresh token must not work again")


def p_jwt_alg_none():
    e = lambda d: base64.urlsafe_b64encode(json.dumps(d).encode()).rstrip(b"=").decode()  # noqa: E731
    import time
    now = int(time.time())
    tok = e({"alg": "none", "typ": "at+jwt"}) + "." + e({
        "iss": T.INFO["url"], "aud": T.INFO["url"], "sub": "mallory", "iat": now, "exp": now + 600,
        "scope": "read write", "workspace_id": T.INFO["workspace"]}) + "."
    ok(req("GET", "/v1/conversations", token=tok)[0] == 401, "unsigned JWT must be rejected")


def p_idp_token_as_access():
    ok(req("GET", "/v1/conversations", token=T.INFO["idp_token"])[0] == 401,
       "an identity-provider token is not a service credential")


def p_list_limit_before_sort():
    ids = [new_conv(f"lb{i}")["id"] for i in range(3)]
    _, lst, _ = req("GET", "/v1/conversations?limit=2")
    ok([c["id"] for c in lst["conversations"]] == [ids[2], ids[1]], "newest-first with limit")


def p_bulk_cap_101():
    c = new_conv()
    msgs = [{"role": "user", "content": str(i)} for i in range(101)]
    s, _, _ = req("POST", f"/v1/conversations/{c['id']}/messages/bulk", {"messages": msgs})
    _, lst, _ = req("GET", f"/v1/conversations/{c['id']}/messages")
    ok(s >= 400 or len(lst["messages"]) <= 100, "more than 100 messages must not be taken")


def p_bulk_response_reversed():
    c = new_conv()
    msgs = [{"role": "user", "content": str(i)} for i in range(5)]
    _, b, _ = req("POST", f"/v1/conversations/{c['id']}/messages/bulk", {"messages": msgs})
    ok([m["content"] for m in b["messages"]] == [str(i) for i in range(5)], "insertion order")


def p_delete_conv_leaves_messages():
    _, e, _ = req("POST", "/v1/entities", {"name": "Orphan Mention Probe", "type": "OBJECT"})
    c1 = new_conv()
    c2 = new_conv()
    add(c1["id"], "Orphan Mention Probe one")
    add(c2["id"], "Orphan Mention Probe two")
    req("DELETE", f"/v1/conversations/{c1['id']}")
    _, h, _ = req("GET", f"/v1/entities/{e['id']}/history")
    ok({m["conversationId"] for m in h["mentions"]} == {c2["id"]}, "messages of a deleted conversation remain")


def p_conv_get_after_delete():
    c = new_conv()
    ok(req("GET", f"/v1/conversations/{c['id']}")[0] == 200, "exists")
    req("DELETE", f"/v1/conversations/{c['id']}")
    ok(req("GET", f"/v1/conversations/{c['id']}")[0] == 404, "deleted conversation must be gone")


def p_conv_get_cross_workspace():
    c = new_conv()
    ok(req("GET", f"/v1/conversations/{c['id']}", token=T.INFO["other_api_key"])[0] == 404,
       "other workspace must not read it")


def p_delete_conv_twice_500():
    c = new_conv()
    ok(req("DELETE", f"/v1/conversations/{c['id']}")[0] == 204, "first")
    ok(req("DELETE", f"/v1/conversations/{c['id']}")[0] == 204, "second delete is idempotent")


def p_content_truncate_10000():
    c = new_conv()
    t = "ab" * 7000
    _, m, _ = req("POST", f"/v1/conversations/{c['id']}/messages", {"role": "user", "content": t})
    _, lst, _ = req("GET", f"/v1/conversations/{c['id']}/messages")
    ok(m["content"] == t and lst["messages"][0]["content"] == t, "14000 chars preserved")


def p_content_nfkc():
    c = new_conv()
    t = "ﬁle ① Ｆｕｌｌ ™ 🌍"
    _, m, _ = req("POST", f"/v1/conversations/{c['id']}/messages", {"role": "user", "content": t})
    ok(m["content"] == t, "unicode preserved")


def p_search_limit_threshold_path():
    c = new_conv()
    for i in range(4):
        add(c["id"], f"apple {i}")
    _, r, _ = req("POST", f"/v1/conversations/{c['id']}/search", {"query": "apple", "limit": 2, "threshold": 0.5})
    ok(len(r["messages"]) <= 2, "limit respected")


def p_entity_type_label_case():
    _, e, _ = req("POST", "/v1/entities", {"name": "Type Probe", "type": "PERSON"})
    _, g, _ = req("GET", f"/v1/entities/{e['id']}")
    ok(e["type"] == "PERSON" and g["type"] == "PERSON", "PERSON preserved")


def p_entity_search_stale_index():
    _, e, _ = req("POST", "/v1/entities", {"name": "Oldname Probe", "type": "OBJECT"})
    req("PUT", f"/v1/entities/{e['id']}", {"name": "Brandnew Xylophone"})
    _, r, _ = req("POST", "/v1/entities/search", {"query": "Brandnew Xylophone"})
    ok(e["id"] in [x["id"] for x in r["entities"]], "search finds the updated name")


def p_feedback_percent_range():
    _, e, _ = req("POST", "/v1/entities", {"name": "Score Probe", "type": "OBJECT"})
    ok(req("PUT", f"/v1/entities/{e['id']}/feedback", {"userScore": 50, "confirmed": True})[0] == 400,
       "userScore outside [0,1] rejected")


def p_history_first_conversation_only():
    _, e, _ = req("POST", "/v1/entities", {"name": "Crossconv Probe", "type": "OBJECT"})
    c1, c2 = new_conv(), new_conv()
    add(c1["id"], "Crossconv Probe a")
    add(c2["id"], "Crossconv Probe b")
    _, h, _ = req("GET", f"/v1/entities/{e['id']}/history")
    ok({m["conversationId"] for m in h["mentions"]} == {c1["id"], c2["id"]}, "every conversation")


def p_merge_drops_rels():
    _, x, _ = req("POST", "/v1/entities", {"name": "Rel X", "type": "OBJECT"})
    _, src, _ = req("POST", "/v1/entities", {"name": "Rel Src", "type": "OBJECT",
                                             "relationships": [{"targetId": x["id"], "type": "KNOWS"}]})
    _, dst, _ = req("POST", "/v1/entities", {"name": "Rel Dst", "type": "OBJECT"})
    req("POST", f"/v1/entities/{src['id']}/merge", {"targetId": dst["id"]})
    _, g, _ = req("GET", f"/v1/entities/{dst['id']}")
    ok(any(r["type"] == "KNOWS" and r["target"] == x["id"] for r in g["relationships"]), "retains rels")


def p_merge_same_as_reversed():
    _, src, _ = req("POST", "/v1/entities", {"name": "Same Src", "type": "OBJECT"})
    _, dst, _ = req("POST", "/v1/entities", {"name": "Same Dst", "type": "OBJECT"})
    req("POST", f"/v1/entities/{src['id']}/merge", {"targetId": dst["id"]})
    _, g, _ = req("GET", "/v1/entities/graph")
    ok(any(e["type"] == "SAME_AS" and e["source"] == src["id"] and e["target"] == dst["id"]
           for e in g["edges"]), "SAME_AS from source to target")


def p_prm_resource_v1():
    _, b, _ = req("GET", "/.well-known/oauth-protected-resource", token=None)
    ok(b["resource"] == T.INFO["url"], "resource = origin")


def p_asm_issuer_trailing_slash():
    _, b, _ = req("GET", "/.well-known/oauth-authorization-server", token=None)
    ok(b["issuer"] == T.INFO["url"], "issuer = origin")


def p_jwks_stale_key():
    T.T01Discovery("test_jwks_verifies_access_token").test_jwks_verifies_access_token()


def p_token_fields_camel():
    _, t, _ = req("POST", "/v1/auth/exchange", {"idpToken": T.INFO["idp_token"]}, token=None)
    ok({"access_token", "refresh_token", "expires_in"} <= set(t), "snake_case token fields")


def p_expires_in_string():
    _, t, _ = req("POST", "/v1/auth/exchange", {"idpToken": T.INFO["idp_token"]}, token=None)
    ok(isinstance(t.get("expires_in"), (int, float)), "expires_in is a number")


def p_conv_list_snake_case():
    new_conv()
    _, lst, _ = req("GET", "/v1/conversations")
    ok(all("createdAt" in c and "created_at" not in c for c in lst["conversations"]), "camelCase")


# ---------------- second batch (FAULTS-2.md) ----------------

def new_ent(name, etype="PERSON", **kw):
    s, e, _ = req("POST", "/v1/entities", dict({"name": name, "type": etype}, **kw))
    ok(s == 201, f"add_entity {s} {e}")
    return e


def p_key_hash_prefix_match():
    k = T.INFO["api_key"]
    forged = k[:-1] + ("A" if k[-1] != "A" else "B")
    ok(req("GET", "/v1/conversations", token=forged)[0] == 401, "a key differing in its last character is not valid")


def p_revoke_by_label():
    _, a, _ = req("POST", "/v1/auth/api-keys", {"label": "ci", "scopes": ["read"]})
    _, b, _ = req("POST", "/v1/auth/api-keys", {"label": "ci", "scopes": ["read"]})
    req("DELETE", f"/v1/auth/api-keys/{a['id']}")
    ok(req("GET", "/v1/conversations", token=a["key"])[0] == 401, "revoked key rejected")
    ok(req("GET", "/v1/conversations", token=b["key"])[0] == 200, "a namesake key stays valid")


def p_refresh_returns_spent_token():
    _, t, _ = req("POST", "/v1/auth/exchange", {"idpToken": T.INFO["idp_token"]}, token=None)
    s1, r1, _ = req("POST", "/v1/auth/refresh", {"refreshToken": t["refresh_token"]}, token=None)
    ok(s1 == 200, "first refresh")
    s2, r2, _ = req("POST", "/v1/auth/refresh", {"refreshToken": r1["refresh_token"]}, token=None)
    ok(s2 == 200, f"the rotated (new) refresh token must work: {s2} {r2}")


def p_exchange_ignores_idp_expiry():
    s, b, _ = req("POST", "/v1/auth/exchange", {"idpToken": T.INFO["expired_idp_token"]}, token=None)
    ok(s >= 400 and not (b or {}).get("access_token"), f"an expired IdP token is not exchanged: {s}")


def p_list_keys_leak_plaintext():
    _, k, _ = req("POST", "/v1/auth/api-keys", {"label": "once", "scopes": ["read"]})
    _, lst, _ = req("GET", "/v1/auth/api-keys")
    ok(k["key"] not in json.dumps(lst), "the plaintext is returned only at creation")


def p_jwks_leaks_private_key():
    _, j, _ = req("GET", "/.well-known/jwks.json", token=None)
    ok(j["keys"] and all(not ({"d", "p", "q", "dp", "dq", "qi"} & set(k)) for k in j["keys"]),
       "JWKS carries public keys only")


def p_asm_no_response_types():
    _, b, _ = req("GET", "/.well-known/oauth-authorization-server", token=None)
    ok(isinstance(b.get("response_types_supported"), list), "RFC 8414 §2 response_types_supported REQUIRED")


def p_prm_content_type_text():
    s, b, h = req("GET", "/.well-known/oauth-protected-resource", token=None)
    ok(s == 200 and h.get("content-type", "").split(";")[0].strip() == "application/json",
       f"RFC 9728 §3.2 application/json: {h.get('content-type')}")


def p_search_spans_user_conversations():
    a, b = new_conv("same-user"), new_conv("same-user")
    add(a["id"], "banana bread")
    add(b["id"], "banana split")
    _, r, _ = req("POST", f"/v1/conversations/{a['id']}/search", {"query": "banana"})
    ok([m["content"] for m in r["messages"]] == ["banana bread"], f"only this conversation: {r['messages']}")


def p_context_recent_oldest_window():
    c = new_conv()
    req("POST", f"/v1/conversations/{c['id']}/messages/bulk",
        {"messages": [{"role": "user", "content": f"m{i}"} for i in range(25)]})
    _, r, _ = req("GET", f"/v1/conversations/{c['id']}/context")
    got = [m["content"] for m in r["recentMessages"]]
    ok(got and got[-1] == "m24" and "m0" not in got, f"recent = most recent: {got[:3]}..{got[-2:]}")


def p_add_message_cross_workspace():
    c = new_conv()
    s, _, _ = req("POST", f"/v1/conversations/{c['id']}/messages", {"role": "user", "content": "intrusion"},
                  token=T.INFO["other_api_key"])
    _, lst, _ = req("GET", f"/v1/conversations/{c['id']}/messages")
    ok(s >= 400 and lst["messages"] == [], f"another workspace cannot write: {s}")


def p_search_entities_type_no_limit():
    for i in range(3):
        new_ent(f"Quill {i}", "PERSON")
    _, r, _ = req("POST", "/v1/entities/search", {"query": "Quill", "type": "PERSON", "limit": 1})
    ok(len(r["entities"]) == 1, f"at most limit results (SPEC-3.4.2): {len(r['entities'])}")


def p_delete_conv_cross_workspace():
    c = new_conv()
    s, _, _ = req("DELETE", f"/v1/conversations/{c['id']}", token=T.INFO["other_api_key"])
    ok(req("GET", f"/v1/conversations/{c['id']}")[0] == 200, f"another workspace cannot delete it ({s})")


def p_bulk_empty_content_rejected():
    c = new_conv()
    s, b, _ = req("POST", f"/v1/conversations/{c['id']}/messages/bulk",
                  {"messages": [{"role": "user", "content": ""}, {"role": "user", "content": "x"}]})
    ok(s == 201 and [m["content"] for m in b["messages"]] == ["", "x"], f"empty content accepted (SPEC-2.1.7): {s}")


def p_bulk_concurrent_lost_update():
    import threading
    c = new_conv()
    add(c["id"], "seed")

    def go(tag):
        req("POST", f"/v1/conversations/{c['id']}/messages/bulk",
            {"messages": [{"role": "user", "content": f"{tag}{i}"} for i in range(5)]})
    ts = [threading.Thread(target=go, args=(t,)) for t in ("a", "b")]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    _, lst, _ = req("GET", f"/v1/conversations/{c['id']}/messages")
    ok(len(lst["messages"]) == 11, f"all messages of concurrent bulks stored (SPEC-2.1.16): {len(lst['messages'])}")


def p_feedback_bool_as_score():
    e = new_ent("Scored")
    s, _, _ = req("PUT", f"/v1/entities/{e['id']}/feedback", {"userScore": True})
    ok(s == 400, f"userScore true is not a number in [0, 1]: {s}")


def p_merge_drops_rel_properties():
    x = new_ent("Xena")
    src = new_ent("Jon", relationships=[{"targetId": x["id"], "type": "KNOWS", "properties": {"since": 2019}}])
    dst = new_ent("Jonathan")
    req("POST", f"/v1/entities/{src['id']}/merge", {"targetId": dst["id"]})
    _, d, _ = req("GET", f"/v1/entities/{dst['id']}")
    rels = [r for r in d["relationships"] if r["type"] == "KNOWS"]
    ok(len(rels) == 1 and rels[0]["properties"] == {"since": 2019}, f"relationship retained as is: {rels}")


def p_graph_hides_merged_source():
    a, b = new_ent("Bobby"), new_ent("Robert")
    req("POST", f"/v1/entities/{a['id']}/merge", {"targetId": b["id"]})
    _, g, _ = req("GET", "/v1/entities/graph")
    ids = {n["id"] for n in g["nodes"]}
    same = [e for e in g["edges"] if e["type"] == "SAME_AS"]
    ok(same and all(e["source"] in ids and e["target"] in ids for e in same),
       "the SAME_AS link's ends are nodes of the graph")


def p_explain_tool_calls_conversation_wide():
    c = new_conv()
    body = {"conversationId": c["id"], "reasoning": "r", "actionTaken": "a", "result": "x"}
    _, s1, _ = req("POST", "/v1/reasoning/steps", body)
    _, s2, _ = req("POST", "/v1/reasoning/steps", body)
    _, t1, _ = req("POST", "/v1/reasoning/tool-calls", {"stepId": s1["id"], "toolName": "one"})
    req("POST", "/v1/reasoning/tool-calls", {"stepId": s2["id"], "toolName": "two"})
    _, ex, _ = req("GET", f"/v1/reasoning/explain/{s1['id']}")
    ok([t["id"] for t in ex["toolCalls"]] == [t1["id"]], "the step's own tool calls (SPEC-5.4.2)")


def p_conversation_userid_trimmed():
    c = new_conv("  padded user ")
    _, g, _ = req("GET", f"/v1/conversations/{c['id']}")
    ok(c["userId"] == "  padded user " and g["userId"] == "  padded user ", "the supplied userId")


def p_bulk_stored_reversed():
    c = new_conv()
    req("POST", f"/v1/conversations/{c['id']}/messages/bulk",
        {"messages": [{"role": "user", "content": f"b{i}"} for i in range(3)]})
    _, lst, _ = req("GET", f"/v1/conversations/{c['id']}/messages")
    ok([m["content"] for m in lst["messages"]] == ["b0", "b1", "b2"], "stored in insertion order")


def p_content_control_chars_stripped():
    c = new_conv()
    txt = "bell\x07 esc\x1b[0m nul\x00 del\x7f"
    add(c["id"], txt)
    _, lst, _ = req("GET", f"/v1/conversations/{c['id']}/messages")
    ok(lst["messages"][0]["content"] == txt, "content matches the input (SPEC-1.1.13)")


def p_metadata_bigint_double():
    c = new_conv()
    md = {"n": 9007199254740993, "m": -12345678901234567890}
    req("POST", f"/v1/conversations/{c['id']}/messages", {"role": "user", "content": "x", "metadata": md})
    _, lst, _ = req("GET", f"/v1/conversations/{c['id']}/messages")
    ok(lst["messages"][0]["metadata"] == md, f"metadata preserved: {lst['messages'][0]['metadata']}")


def p_cypher_or_binds_tighter():
    new_ent("Ann", "PERSON")
    new_ent("Ben", "PERSON")
    q = ("MATCH (e:Entity) WHERE e.name = 'Ann' OR e.name = 'Ben' AND e.type = 'ORGANIZATION' "
         "RETURN e.name ORDER BY e.name")
    s, r, _ = req("POST", "/v1/query", {"query": q})
    ok(s == 200 and r["rows"] == [["Ann"]], f"AND binds tighter than OR: {s} {r}")


PROBES = {name[2:].replace("_", "-"): fn for name, fn in dict(globals()).items() if name.startswith("p_")}


def run(fault, probe):
    T.SRV, T.INFO = T.start_server(fault)
    try:
        probe()
        return True, ""
    except AssertionError as e:
        return False, str(e)
    except Exception as e:  # noqa: BLE001
        return False, f"{type(e).__name__}: {e}"
    finally:
        T.SRV.terminate()
        T.SRV.wait(5)
        T.SRV.stdout.close()


def main():
    names = sys.argv[1:] or sorted(PROBES)
    bad = 0
    for n in names:
        good, why = run(None, PROBES[n])
        faulty, why_f = run(n, PROBES[n])
        status = "OK " if good and not faulty else "BAD"
        if status == "BAD":
            bad += 1
        print(f"{status} {n:36s} correct={'pass' if good else 'FAIL ' + why}  "
              f"fault={'FAIL (' + why_f + ')' if not faulty else 'pass (undetected)'}")
    print(f"{len(names) - bad} passed, {bad} failed")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
