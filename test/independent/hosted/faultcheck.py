#!/usr/bin/env python3
"""For every fault: a probe that passes on the correct server and fails under the fault.

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
