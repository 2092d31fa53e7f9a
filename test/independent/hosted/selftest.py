#!/usr/bin/env python3
"""Self-tests: start server.py on a free port as a subprocess and drive it over HTTP.

python3 selftest.py            (the correct server; INDEPENDENT_FAULT is removed)
"""

import base64
import hashlib
import http.client
import json
import os
import subprocess
import sys
import threading
import time
import unittest
import urllib.parse
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
SRV = None
INFO = None


def start_server(fault=None):
    env = dict(os.environ)
    env.pop("INDEPENDENT_FAULT", None)
    if fault:
        env["INDEPENDENT_FAULT"] = fault
    p = subprocess.Popen([sys.executable, os.path.join(HERE, "server.py"), "--port", "0"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    line = p.stdout.readline()
    return p, json.loads(line)


def setUpModule():
    global SRV, INFO
    SRV, INFO = start_server(os.environ.get("SELFTEST_FAULT"))


def tearDownModule():
    SRV.terminate()
    SRV.wait(5)


def req(method, path, body=None, token="__default__", headers=None, raw=None):
    u = urllib.parse.urlsplit(INFO["url"])
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=20)
    h = dict(headers or {})
    if token == "__default__":
        token = INFO["api_key"]
    if token is not None:
        h["Authorization"] = f"Bearer {token}"
    data = raw
    if body is not None:
        data = json.dumps(body).encode()
        h["Content-Type"] = "application/json"
    conn.request(method, path, body=data, headers=h)
    r = conn.getresponse()
    payload = r.read()
    conn.close()
    val = json.loads(payload) if payload else None
    return r.status, val, dict((k.lower(), v) for k, v in r.getheaders())


def is_uuid(s):
    try:
        return str(uuid.UUID(s)) == s
    except Exception:
        return False


def jwt_claims(tok):
    p = tok.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(p + "=" * (-len(p) % 4)))


class T01Discovery(unittest.TestCase):
    def test_protected_resource(self):
        s, b, h = req("GET", "/.well-known/oauth-protected-resource", token=None)
        self.assertEqual(s, 200)
        self.assertTrue(h["content-type"].startswith("application/json"))
        self.assertEqual(b["resource"], INFO["url"])
        self.assertIn(INFO["url"], b["authorization_servers"])
        self.assertEqual(b["scopes_supported"], ["read", "write"])

    def test_authorization_server(self):
        s, b, _ = req("GET", "/.well-known/oauth-authorization-server", token=None)
        self.assertEqual(s, 200)
        self.assertEqual(b["issuer"], INFO["url"])
        for k in ("authorization_endpoint", "token_endpoint", "jwks_uri", "response_types_supported"):
            self.assertIn(k, b)
        self.assertIn("S256", b["code_challenge_methods_supported"])

    def test_jwks_verifies_access_token(self):
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import padding, rsa
        s, b, _ = req("GET", "/.well-known/jwks.json", token=None)
        self.assertEqual(s, 200)
        s, t, _ = req("POST", "/v1/auth/exchange", {"idpToken": INFO["idp_token"]}, token=None)
        at = t["access_token"]
        hdr = json.loads(base64.urlsafe_b64decode(at.split(".")[0] + "=="))
        key = [k for k in b["keys"] if k["kid"] == hdr["kid"]][0]
        d = lambda x: int.from_bytes(base64.urlsafe_b64decode(x + "=" * (-len(x) % 4)), "big")
        pub = rsa.RSAPublicNumbers(d(key["e"]), d(key["n"])).public_key()
        h, p, sig = at.split(".")
        pub.verify(base64.urlsafe_b64decode(sig + "=" * (-len(sig) % 4)), f"{h}.{p}".encode(),
                   padding.PKCS1v15(), hashes.SHA256())
        c = jwt_claims(at)
        self.assertEqual(c["iss"], INFO["url"])


class T02Auth(unittest.TestCase):
    def test_missing_credential(self):
        s, b, h = req("GET", "/v1/conversations", token=None)
        self.assertEqual(s, 401)
        self.assertIn("error", b)
        self.assertIn("resource_metadata", h["www-authenticate"])

    def test_garbage_and_wrong_scheme(self):
        self.assertEqual(req("GET", "/v1/entities", token="nams_nope")[0], 401)
        self.assertEqual(req("GET", "/v1/entities", token="x.y.z")[0], 401)
        s, _, _ = req("GET", "/v1/entities", token=None, headers={"Authorization": "Basic abc"})
        self.assertEqual(s, 401)

    def test_expired_credentials(self):
        self.assertEqual(req("GET", "/v1/conversations", token=INFO["expired_token"])[0], 401)
        self.assertEqual(req("GET", "/v1/conversations", token=INFO["expired_api_key"])[0], 401)
        s, b, _ = req("POST", "/v1/auth/exchange", {"idpToken": INFO["expired_idp_token"]}, token=None)
        self.assertEqual(s, 401)
        self.assertEqual(b["error"], "invalid_grant")

    def test_idp_token_is_not_an_access_token(self):
        self.assertEqual(req("GET", "/v1/conversations", token=INFO["idp_token"])[0], 401)

    def test_exchange_and_refresh_rotation(self):
        s, t, h = req("POST", "/v1/auth/exchange", {"idpToken": INFO["idp_token"]}, token=None)
        self.assertEqual(s, 200)
        self.assertEqual(set(t) >= {"access_token", "refresh_token", "expires_in"}, True)
        self.assertIsInstance(t["expires_in"], int)
        self.assertEqual(h.get("cache-control"), "no-store")
        at = t["access_token"]
        self.assertEqual(jwt_claims(at)["workspace_id"], INFO["workspace"])
        s, c, _ = req("POST", "/v1/conversations", {"userId": "u-jwt"}, token=at)
        self.assertEqual(s, 201)
        # the same conversation is visible with the API key of the same workspace
        self.assertEqual(req("GET", f"/v1/conversations/{c['id']}")[0], 200)
        # exchange is repeatable
        self.assertEqual(req("POST", "/v1/auth/exchange", {"idpToken": INFO["idp_token"]}, token=None)[0], 200)
        s, t2, _ = req("POST", "/v1/auth/refresh", {"refreshToken": t["refresh_token"]}, token=None)
        self.assertEqual(s, 200)
        self.assertNotEqual(t2["refresh_token"], t["refresh_token"])
        self.assertNotEqual(t2["access_token"], at)
        self.assertEqual(req("GET", "/v1/conversations", token=t2["access_token"])[0], 200)
        # rotation: the old refresh token is spent, the new one works
        self.assertEqual(req("POST", "/v1/auth/refresh", {"refreshToken": t["refresh_token"]}, token=None)[0], 401)
        self.assertEqual(req("POST", "/v1/auth/refresh", {"refreshToken": t2["refresh_token"]}, token=None)[0], 200)
        # refresh token is not a bearer credential
        self.assertEqual(req("GET", "/v1/conversations", token=t2["refresh_token"])[0], 401)

    def test_exchange_input_errors(self):
        self.assertEqual(req("POST", "/v1/auth/exchange", {}, token=None)[0], 400)
        self.assertEqual(req("POST", "/v1/auth/exchange", {"idpToken": INFO["api_key"]}, token=None)[0], 401)
        self.assertEqual(req("POST", "/v1/auth/refresh", {}, token=None)[0], 400)
        self.assertEqual(req("POST", "/v1/auth/refresh", {"refreshToken": "nope"}, token=None)[0], 401)

    def test_exchanged_access_token_not_accepted_at_exchange(self):
        _, t, _ = req("POST", "/v1/auth/exchange", {"idpToken": INFO["idp_token"]}, token=None)
        self.assertEqual(req("POST", "/v1/auth/exchange", {"idpToken": t["access_token"]}, token=None)[0], 401)

    def test_read_only_key(self):
        s, k, _ = req("POST", "/v1/auth/api-keys", {"label": "ro", "scopes": ["read"],
                                                    "workspaceId": INFO["workspace"]})
        self.assertEqual(s, 201)
        self.assertEqual(req("GET", "/v1/conversations", token=k["key"])[0], 200)
        s, b, _ = req("POST", "/v1/conversations", {"userId": "x"}, token=k["key"])
        self.assertEqual(s, 403)
        self.assertEqual(b["error"], "insufficient_scope")
        self.assertEqual(req("POST", "/v1/entities/search", {"query": "x"}, token=k["key"])[0], 200)

    def test_pkce_flow(self):
        verifier = "v" * 50
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        q = urllib.parse.urlencode({"response_type": "code", "client_id": "cli",
                                    "redirect_uri": "http://127.0.0.1/cb", "code_challenge": challenge,
                                    "code_challenge_method": "S256", "state": "s1",
                                    "id_token_hint": INFO["idp_token"]})
        s, _, h = req("GET", "/oauth/authorize?" + q, token=None)
        self.assertEqual(s, 302)
        loc = urllib.parse.urlsplit(h["location"])
        qs = urllib.parse.parse_qs(loc.query)
        self.assertEqual(qs["state"], ["s1"])
        form = urllib.parse.urlencode({"grant_type": "authorization_code", "code": qs["code"][0],
                                       "code_verifier": verifier, "redirect_uri": "http://127.0.0.1/cb"})
        s, t, _ = req("POST", "/oauth/token", token=None, raw=form.encode(),
                      headers={"Content-Type": "application/x-www-form-urlencoded"})
        self.assertEqual(s, 200)
        self.assertEqual(req("GET", "/v1/entities", token=t["access_token"])[0], 200)


class T03Keys(unittest.TestCase):
    def test_lifecycle(self):
        s, k, _ = req("POST", "/v1/auth/api-keys", {"label": "ci", "scopes": ["read", "write"],
                                                    "workspaceId": INFO["workspace"]})
        self.assertEqual(s, 201)
        self.assertTrue(k["key"].startswith("nams_"))
        self.assertTrue(is_uuid(k["id"]))
        s, lst, _ = req("GET", "/v1/auth/api-keys?workspaceId=" + INFO["workspace"])
        self.assertEqual(s, 200)
        mine = [x for x in lst["apiKeys"] if x["id"] == k["id"]]
        self.assertEqual(len(mine), 1)
        self.assertNotIn("key", mine[0])
        # 90 days
        from datetime import datetime
        ca = datetime.fromisoformat(mine[0]["createdAt"].replace("Z", "+00:00"))
        ea = datetime.fromisoformat(mine[0]["expiresAt"].replace("Z", "+00:00"))
        self.assertEqual((ea - ca).days, 90)
        s, r, _ = req("GET", f"/v1/auth/api-keys/{k['id']}/reveal")
        self.assertEqual(s, 200)
        self.assertEqual(r["key"], k["key"])
        # reveal from another workspace fails
        s, _, _ = req("GET", f"/v1/auth/api-keys/{k['id']}/reveal", token=INFO["other_api_key"])
        self.assertEqual(s, 404)
        self.assertEqual(req("DELETE", f"/v1/auth/api-keys/{k['id']}", token=INFO["other_api_key"])[0], 404)
        self.assertEqual(req("GET", "/v1/conversations", token=k["key"])[0], 200)
        self.assertEqual(req("DELETE", f"/v1/auth/api-keys/{k['id']}")[0], 204)
        self.assertEqual(req("GET", "/v1/conversations", token=k["key"])[0], 401)
        s, lst, _ = req("GET", "/v1/auth/api-keys")
        self.assertEqual([x["status"] for x in lst["apiKeys"] if x["id"] == k["id"]], ["revoked"])

    def test_key_validation(self):
        self.assertEqual(req("POST", "/v1/auth/api-keys", {"label": "x", "scopes": ["admin"]})[0], 400)
        self.assertEqual(req("POST", "/v1/auth/api-keys", {"label": "x", "scopes": []})[0], 400)
        self.assertEqual(req("POST", "/v1/auth/api-keys", {"scopes": ["read"]})[0], 400)
        s, _, _ = req("POST", "/v1/auth/api-keys", {"label": "x", "scopes": ["read"],
                                                   "workspaceId": str(uuid.uuid4())})
        self.assertEqual(s, 403)
        self.assertEqual(req("GET", "/v1/auth/api-keys?workspaceId=" + str(uuid.uuid4()))[0], 403)

    def test_key_via_access_token(self):
        _, t, _ = req("POST", "/v1/auth/exchange", {"idpToken": INFO["idp_token"]}, token=None)
        s, k, _ = req("POST", "/v1/auth/api-keys", {"label": "jwt-made", "scopes": ["read"],
                                                    "workspaceId": INFO["workspace"]},
                      token=t["access_token"])
        self.assertEqual(s, 201)
        self.assertEqual(req("GET", f"/v1/auth/api-keys/{k['id']}/reveal")[0], 200)


class T04Conversations(unittest.TestCase):
    def test_create_get_list_delete(self):
        s, c, _ = req("POST", "/v1/conversations", {"userId": "alice", "metadata": {"a": {"b": 1}}})
        self.assertEqual(s, 201)
        self.assertTrue(is_uuid(c["id"]))
        self.assertEqual(c["userId"], "alice")
        self.assertEqual(c["workspaceId"], INFO["workspace"])
        self.assertIn("createdAt", c)
        s, c2, _ = req("POST", "/v1/conversations", {"userId": "bob"})
        s, lst, _ = req("GET", "/v1/conversations")
        ids = [x["id"] for x in lst["conversations"]]
        self.assertLess(ids.index(c2["id"]), ids.index(c["id"]))   # newest first
        s, m, _ = req("GET", f"/v1/conversations/{c['id']}")
        self.assertEqual((s, m["userId"], m["metadata"]), (200, "alice", {"a": {"b": 1}}))
        # isolation
        self.assertEqual(req("GET", f"/v1/conversations/{c['id']}", token=INFO["other_api_key"])[0], 404)
        _, lst2, _ = req("GET", "/v1/conversations", token=INFO["other_api_key"])
        self.assertNotIn(c["id"], [x["id"] for x in lst2["conversations"]])
        self.assertEqual(req("DELETE", f"/v1/conversations/{c['id']}")[0], 204)
        self.assertEqual(req("DELETE", f"/v1/conversations/{c['id']}")[0], 204)
        self.assertEqual(req("GET", f"/v1/conversations/{c['id']}")[0], 404)
        _, lst, _ = req("GET", "/v1/conversations")
        self.assertNotIn(c["id"], [x["id"] for x in lst["conversations"]])

    def test_limit(self):
        for i in range(3):
            req("POST", "/v1/conversations", {"userId": f"lim{i}"})
        s, lst, _ = req("GET", "/v1/conversations?limit=2")
        self.assertEqual(len(lst["conversations"]), 2)
        self.assertEqual(req("GET", "/v1/conversations?limit=abc")[0], 400)
        self.assertEqual(req("GET", "/v1/conversations?limit=0")[0], 400)

    def test_validation(self):
        self.assertEqual(req("POST", "/v1/conversations", {})[0], 400)
        self.assertEqual(req("POST", "/v1/conversations", {"userId": 5})[0], 400)
        self.assertEqual(req("POST", "/v1/conversations", raw=b"{bad")[0], 400)
        self.assertEqual(req("POST", "/v1/conversations", raw=b"[1]")[0], 400)
        self.assertEqual(req("POST", "/v1/conversations", raw=b'{"userId": NaN}')[0], 400)
        self.assertEqual(req("POST", "/v1/conversations", raw=b'{"userId": "\\ud800"}')[0], 400)
        self.assertEqual(req("POST", "/v1/conversations", raw=b'{"userId": "x", "metadata": {"n": 1e400}}')[0], 400)
        self.assertEqual(req("POST", "/v1/conversations", raw=b"[" * 100000)[0], 400)
        self.assertEqual(req("GET", "/v1/conversations?limit=99999999999999999999")[0], 200)
        s, b, h = req("PATCH", "/v1/conversations")
        self.assertEqual(s, 405)
        self.assertIn("GET", h["allow"])
        self.assertEqual(req("GET", "/v1/nothing")[0], 404)
        self.assertEqual(req("GET", f"/v1/conversations/{uuid.uuid4()}")[0], 404)

    def test_messages_roundtrip(self):
        _, c, _ = req("POST", "/v1/conversations", {"userId": "u"})
        cid = c["id"]
        texts = ["héllo 🌍 \"q\" \\ \n\t", "", "x" * 12000, "\u0001ctl"]
        for i, t in enumerate(texts):
            s, m, _ = req("POST", f"/v1/conversations/{cid}/messages",
                          {"role": ["user", "assistant", "system", "user"][i], "content": t})
            self.assertEqual(s, 201)
            self.assertEqual(m["content"], t)
            self.assertEqual(m["metadata"], {})
            self.assertTrue(is_uuid(m["id"]))
        s, lst, _ = req("GET", f"/v1/conversations/{cid}/messages")
        self.assertEqual([m["content"] for m in lst["messages"]], texts)
        ts = [m["timestamp"] for m in lst["messages"]]
        self.assertEqual(ts, sorted(ts))
        s, lst, _ = req("GET", f"/v1/conversations/{cid}/messages?limit=1")
        self.assertEqual(len(lst["messages"]), 1)
        self.assertEqual(req("POST", f"/v1/conversations/{cid}/messages", {"role": "bot", "content": "x"})[0], 400)
        self.assertEqual(req("POST", f"/v1/conversations/{cid}/messages", {"role": "user"})[0], 400)
        self.assertEqual(req("POST", f"/v1/conversations/{uuid.uuid4()}/messages",
                             {"role": "user", "content": "x"})[0], 404)
        _, meta, _ = req("GET", f"/v1/conversations/{cid}")
        self.assertEqual(meta["messageCount"], 4)

    def test_bulk(self):
        _, c, _ = req("POST", "/v1/conversations", {"userId": "u"})
        msgs = [{"role": "user", "content": f"m{i}"} for i in range(100)]
        s, b, _ = req("POST", f"/v1/conversations/{c['id']}/messages/bulk", {"messages": msgs})
        self.assertEqual(s, 201)
        self.assertEqual([m["content"] for m in b["messages"]], [f"m{i}" for i in range(100)])
        s, _, _ = req("POST", f"/v1/conversations/{c['id']}/messages/bulk", {"messages": msgs + msgs[:1]})
        self.assertEqual(s, 400)
        bad = [{"role": "user", "content": "ok"}, {"role": "nope", "content": "x"}]
        self.assertEqual(req("POST", f"/v1/conversations/{c['id']}/messages/bulk", {"messages": bad})[0], 400)
        _, lst, _ = req("GET", f"/v1/conversations/{c['id']}/messages")
        self.assertEqual(len(lst["messages"]), 100)
        # context and observations
        s, ctx, _ = req("GET", f"/v1/conversations/{c['id']}/context")
        self.assertEqual(s, 200)
        for k in ("reflections", "observations", "recentMessages"):
            self.assertIsInstance(ctx[k], list)
        self.assertEqual(ctx["recentMessages"][-1]["content"], "m99")
        s, ob, _ = req("GET", f"/v1/conversations/{c['id']}/observations")
        self.assertEqual(len(ob["observations"]), 10)
        s, rf, _ = req("GET", f"/v1/conversations/{c['id']}/reflections")
        self.assertEqual(len(rf["reflections"]), 1)

    def test_search(self):
        _, c, _ = req("POST", "/v1/conversations", {"userId": "u"})
        _, c2, _ = req("POST", "/v1/conversations", {"userId": "u"})
        for t in ("I love pizza", "weather is nice", "pizza again"):
            req("POST", f"/v1/conversations/{c['id']}/messages", {"role": "user", "content": t})
        req("POST", f"/v1/conversations/{c2['id']}/messages", {"role": "user", "content": "pizza elsewhere"})
        s, r, _ = req("POST", f"/v1/conversations/{c['id']}/search", {"query": "pizza"})
        self.assertEqual(s, 200)
        self.assertEqual([m["content"] for m in r["messages"]], ["I love pizza", "pizza again"])
        _, r, _ = req("POST", f"/v1/conversations/{c['id']}/search", {"query": "pizza", "limit": 1})
        self.assertEqual(len(r["messages"]), 1)
        _, r, _ = req("POST", f"/v1/conversations/{c['id']}/search", {"query": "zzzz"})
        self.assertEqual(r["messages"], [])
        self.assertEqual(req("POST", f"/v1/conversations/{c['id']}/search", {})[0], 400)


class T05Entities(unittest.TestCase):
    def test_crud(self):
        s, e, _ = req("POST", "/v1/entities", {"name": "Zed Quux", "type": "PERSON", "description": "d"})
        self.assertEqual(s, 201)
        self.assertTrue(is_uuid(e["id"]))
        self.assertEqual((e["name"], e["type"], e["description"]), ("Zed Quux", "PERSON", "d"))
        for t in ("ORGANIZATION", "LOCATION", "EVENT", "OBJECT"):
            s, x, _ = req("POST", "/v1/entities", {"name": f"T {t}", "type": t})
            self.assertEqual((s, x["type"]), (201, t))
        self.assertEqual(req("POST", "/v1/entities", {"name": "x", "type": "ALIEN"})[0], 400)
        s, g, _ = req("GET", f"/v1/entities/{e['id']}")
        self.assertEqual(g["name"], "Zed Quux")
        s, u, _ = req("PUT", f"/v1/entities/{e['id']}", {"name": "Zed Q", "description": "new"})
        self.assertEqual((s, u["name"], u["description"]), (200, "Zed Q", "new"))
        self.assertEqual(req("GET", f"/v1/entities/{e['id']}")[1]["name"], "Zed Q")
        _, lst, _ = req("GET", "/v1/entities?type=PERSON")
        self.assertIn(e["id"], [x["id"] for x in lst["entities"]])
        self.assertTrue(all(x["type"] == "PERSON" for x in lst["entities"]))
        _, sr, _ = req("POST", "/v1/entities/search", {"query": "Zed"})
        self.assertIn(e["id"], [x["id"] for x in sr["entities"]])
        self.assertEqual(req("GET", f"/v1/entities/{e['id']}", token=INFO["other_api_key"])[0], 404)
        self.assertEqual(req("DELETE", f"/v1/entities/{e['id']}")[0], 204)
        self.assertEqual(req("GET", f"/v1/entities/{e['id']}")[0], 404)
        _, sr, _ = req("POST", "/v1/entities/search", {"query": "Zed"})
        self.assertNotIn(e["id"], [x["id"] for x in sr["entities"]])
        self.assertEqual(req("DELETE", f"/v1/entities/{e['id']}")[0], 404)

    def test_graph_path_is_literal(self):
        s, g, _ = req("GET", "/v1/entities/graph")
        self.assertEqual(s, 200)
        self.assertIn("nodes", g)
        self.assertIn("edges", g)
        self.assertEqual(req("DELETE", "/v1/entities/graph")[0], 405)

    def test_feedback_history_merge(self):
        _, a, _ = req("POST", "/v1/entities", {"name": "Ada Lovelace", "type": "PERSON"})
        _, b, _ = req("POST", "/v1/entities", {"name": "Augusta King", "type": "PERSON"})
        _, o, _ = req("POST", "/v1/entities", {"name": "Analytical Society", "type": "ORGANIZATION",
                                               "relationships": [{"targetId": a["id"], "type": "RELATED_TO"}]})
        s, f, _ = req("PUT", f"/v1/entities/{a['id']}/feedback", {"userScore": 0.8, "confirmed": True})
        self.assertEqual((s, f["id"], f["updated"]), (200, a["id"], True))
        self.assertEqual(req("PUT", f"/v1/entities/{a['id']}/feedback", {"userScore": 1.5})[0], 400)
        self.assertEqual(req("PUT", f"/v1/entities/{a['id']}/feedback", {"userScore": True})[0], 400)
        _, c1, _ = req("POST", "/v1/conversations", {"userId": "u"})
        _, c2, _ = req("POST", "/v1/conversations", {"userId": "u"})
        req("POST", f"/v1/conversations/{c1['id']}/messages", {"role": "user", "content": "Ada Lovelace wrote notes"})
        req("POST", f"/v1/conversations/{c2['id']}/messages", {"role": "user", "content": "more on ada lovelace"})
        req("POST", f"/v1/conversations/{c2['id']}/messages", {"role": "user", "content": "Augusta King too"})
        s, h, _ = req("GET", f"/v1/entities/{a['id']}/history")
        self.assertEqual(s, 200)
        self.assertEqual(h["entityId"], a["id"])
        self.assertEqual({m["conversationId"] for m in h["mentions"]}, {c1["id"], c2["id"]})
        s, m, _ = req("POST", f"/v1/entities/{b['id']}/merge", {"targetId": a["id"]})
        self.assertEqual((s, m["sourceId"], m["targetId"]), (200, b["id"], a["id"]))
        _, g, _ = req("GET", "/v1/entities/graph")
        self.assertTrue(any(e["type"] == "SAME_AS" and e["source"] == b["id"] and e["target"] == a["id"]
                            for e in g["edges"]))
        _, h, _ = req("GET", f"/v1/entities/{a['id']}/history")
        self.assertEqual(len(h["mentions"]), 3)
        self.assertEqual(req("POST", f"/v1/entities/{a['id']}/merge", {"targetId": a["id"]})[0], 400)

    def test_extraction(self):
        _, c, _ = req("POST", "/v1/conversations", {"userId": "u"})
        req("POST", f"/v1/conversations/{c['id']}/messages",
            {"role": "user", "content": "Yesterday Grace Hopper visited Quantum Widgets Corp."})
        _, sr, _ = req("POST", "/v1/entities/search", {"query": "Grace Hopper"})
        self.assertEqual(sr["entities"][0]["name"], "Grace Hopper")
        self.assertEqual(sr["entities"][0]["type"], "PERSON")
        _, sr, _ = req("POST", "/v1/entities/search", {"query": "Quantum Widgets Corp"})
        self.assertEqual(sr["entities"][0]["type"], "ORGANIZATION")


class T06Reasoning(unittest.TestCase):
    def test_steps_tools_trace_provenance(self):
        _, c, _ = req("POST", "/v1/conversations", {"userId": "u"})
        _, e, _ = req("POST", "/v1/entities", {"name": "Prov Entity", "type": "OBJECT"})
        s, st, _ = req("POST", "/v1/reasoning/steps", {"conversationId": c["id"], "reasoning": "think",
                                                       "actionTaken": "act", "result": "ok",
                                                       "influencedEntityIds": [e["id"]]})
        self.assertEqual(s, 201)
        self.assertEqual((st["conversationId"], st["reasoning"], st["actionTaken"], st["result"]),
                         (c["id"], "think", "act", "ok"))
        s, st2, _ = req("POST", "/v1/reasoning/steps", {"conversationId": c["id"], "reasoning": "r2",
                                                        "actionTaken": "a2"})
        self.assertIsNone(st2["result"])
        s, tc, _ = req("POST", "/v1/reasoning/tool-calls", {"stepId": st["id"], "toolName": "search",
                                                           "arguments": {"q": 1}, "status": "timeout",
                                                           "durationMs": 5})
        self.assertEqual((s, tc["status"], tc["durationMs"]), (201, "timeout", 5))
        self.assertEqual(req("POST", "/v1/reasoning/tool-calls", {"stepId": st["id"], "toolName": "x",
                                                                  "status": "weird"})[0], 400)
        s, ls, _ = req("GET", "/v1/reasoning/steps?conversationId=" + c["id"])
        self.assertEqual([x["id"] for x in ls["steps"]], [st["id"], st2["id"]])
        s, ex, _ = req("GET", f"/v1/reasoning/explain/{st['id']}")
        self.assertEqual([t["id"] for t in ex["toolCalls"]], [tc["id"]])
        self.assertEqual([x["id"] for x in ex["influencedEntities"]], [e["id"]])
        s, tr, _ = req("GET", f"/v1/reasoning/trace/{c['id']}")
        self.assertEqual((len(tr["steps"]), len(tr["toolCalls"])), (2, 1))
        s, pv, _ = req("GET", f"/v1/reasoning/provenance/{e['id']}")
        self.assertEqual((pv["entityId"], [x["id"] for x in pv["steps"]]), (e["id"], [st["id"]]))
        self.assertEqual(req("POST", "/v1/reasoning/steps", {"conversationId": str(uuid.uuid4()),
                                                            "reasoning": "r", "actionTaken": "a"})[0], 404)
        self.assertEqual(req("GET", f"/v1/reasoning/explain/{st['id']}", token=INFO["other_api_key"])[0], 404)
        req("DELETE", f"/v1/conversations/{c['id']}")
        self.assertEqual(req("GET", f"/v1/reasoning/explain/{st['id']}")[0], 404)
        _, pv, _ = req("GET", f"/v1/reasoning/provenance/{e['id']}")
        self.assertEqual(pv["steps"], [])


class T07Query(unittest.TestCase):
    def test_read_queries(self):
        _, e, _ = req("POST", "/v1/entities", {"name": "Query Target", "type": "EVENT"})
        s, r, _ = req("POST", "/v1/query", {"query": "MATCH (e:Entity) WHERE e.name = $n RETURN e.id AS id, e.type",
                                            "params": {"n": "Query Target"}})
        self.assertEqual(s, 200)
        self.assertEqual(r["columns"], ["id", "e.type"])
        self.assertEqual(r["rows"], [[e["id"], "EVENT"]])
        s, r, _ = req("POST", "/v1/query", {"query": "MATCH (e:Entity {name: 'Query Target'}) RETURN count(e) AS n"})
        self.assertEqual(r["rows"], [[1]])
        s, r, _ = req("POST", "/v1/query", {"query": "RETURN 1 AS one"})
        self.assertEqual(r["rows"], [[1]])
        s, r, _ = req("POST", "/v1/query", {"query": "MATCH (e:Entity) RETURN e.name ORDER BY e.name LIMIT 2"})
        self.assertLessEqual(len(r["rows"]), 2)
        # isolation
        _, r, _ = req("POST", "/v1/query", {"query": "MATCH (e:Entity {name: 'Query Target'}) RETURN e.id"},
                      token=INFO["other_api_key"])
        self.assertEqual(r["rows"], [])

    def test_writes_rejected(self):
        for q in ("CREATE (n:Entity {name: 'x'}) RETURN n", "MATCH (n) DETACH DELETE n",
                  "MATCH (n:Entity) SET n.name = 'y' RETURN n", "MERGE (n:X) RETURN n"):
            s, b, _ = req("POST", "/v1/query", {"query": q})
            self.assertEqual(s, 400, q)
            self.assertEqual(b["error"], "write_not_allowed")
        self.assertEqual(req("POST", "/v1/query", {"query": "MATCH (n RETURN"})[0], 400)


class T08Robustness(unittest.TestCase):
    def test_big_body(self):
        s, _, _ = req("POST", "/v1/conversations", raw=b"{" + b" " * (1024 * 1024 + 10) + b"}",
                      headers={"Content-Type": "application/json"})
        self.assertEqual(s, 413)

    def test_concurrent_writes(self):
        _, c, _ = req("POST", "/v1/conversations", {"userId": "conc"})
        errs = []

        def worker(i):
            for j in range(10):
                s, _, _ = req("POST", f"/v1/conversations/{c['id']}/messages",
                              {"role": "user", "content": f"{i}-{j}"})
                if s != 201:
                    errs.append(s)
        ts = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        self.assertEqual(errs, [])
        _, lst, _ = req("GET", f"/v1/conversations/{c['id']}/messages")
        self.assertEqual(len(lst["messages"]), 80)

    def test_unknown_method(self):
        s, b, _ = req("BREW", "/v1/conversations")
        self.assertEqual(s, 405)
        s, b, _ = req("GET", "/nowhere", token=None)
        self.assertEqual(s, 404)


if __name__ == "__main__":
    unittest.main(verbosity=1)
