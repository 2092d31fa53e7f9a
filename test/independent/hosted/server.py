#!/usr/bin/env python3
"""Independent implementation of the hosted Agent Memory REST interface (/v1).

Standard library + `cryptography` (RS256 JWT signing) only.
Start: python3 server.py --port N   (0 = a free port)
Prints ONE JSON line with url, api_key, workspace, other_api_key, idp_token,
expired_token, expired_idp_token (and expired_api_key), then serves.

INDEPENDENT_FAULT=<fault-id> selects a one-rule fault (see FAULTS.md).
"""

import argparse
import base64
import hashlib
import hmac
import json
import os
import re
import secrets
import sys
import threading
import unicodedata
import urllib.parse
import uuid
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

FAULT = os.environ.get("INDEPENDENT_FAULT", "")

MAX_BODY = 1024 * 1024          # 1 MiB per request body
DRAIN_MAX = 16 * 1024 * 1024    # oversized bodies up to this are drained before the 413
API_KEY_PREFIX = "nams"
API_KEY_LIFETIME = timedelta(days=90)
ACCESS_TOKEN_TTL = 900           # seconds (expires_in unit: seconds)
REFRESH_TOKEN_TTL = timedelta(days=30)
IDP_TOKEN_DEFAULT_TTL = 24 * 3600
JWT_LEEWAY = 30                  # seconds of clock skew tolerated on exp
BULK_MAX = 100
DEFAULT_LIMIT = 100
MAX_LIMIT = 1000
OBS_WINDOW = 10                  # messages per observation window
CONTEXT_RECENT = 20              # recent messages in the context view
ENTITY_TYPES = ("PERSON", "ORGANIZATION", "LOCATION", "EVENT", "OBJECT")
ROLES = ("user", "assistant", "system")
TOOL_STATUSES = ("pending", "success", "failure", "error", "timeout", "cancelled")
SCOPES = ("read", "write")
QUERY_MAX_ROWS = 10000


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------

class ApiError(Exception):
    def __init__(self, status, code, message, headers=None):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}


def bad(message, code="invalid_request"):
    return ApiError(400, code, message)


def not_found(what):
    return ApiError(404, "not_found", f"{what} not found")


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64u_dec(s: str) -> bytes:
    if not isinstance(s, str) or not re.fullmatch(r"[A-Za-z0-9_-]*", s):
        raise ValueError("bad base64url")
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def int_to_b64u(n: int) -> str:
    return b64u(n.to_bytes((n.bit_length() + 7) // 8, "big"))


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def iso(dt: datetime) -> str:
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def is_uuid(s) -> bool:
    if not isinstance(s, str):
        return False
    try:
        return str(uuid.UUID(s)) == s.lower() and len(s) == 36
    except ValueError:
        return False


def norm_id(s):
    return s.lower() if isinstance(s, str) else s


WORD_RE = re.compile(r"\w+", re.UNICODE)


def tokens(text: str):
    return [t.casefold() for t in WORD_RE.findall(text or "")]


def check_strings(value, depth=0):
    """Reject lone surrogates (not valid Unicode) and absurd nesting."""
    if depth > 64:
        raise bad("JSON nesting too deep")
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise bad("string contains an unpaired surrogate (invalid Unicode)")
    elif isinstance(value, dict):
        for k, v in value.items():
            check_strings(k, depth + 1)
            check_strings(v, depth + 1)
    elif isinstance(value, list):
        for v in value:
            check_strings(v, depth + 1)


def _reject_constant(name):
    raise ValueError(f"non-standard JSON constant {name}")


def _finite_float(text):
    v = float(text)
    if v != v or v in (float("inf"), float("-inf")):
        raise ValueError(f"number {text[:40]} is out of range")
    return v


def parse_json(raw: bytes):
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise bad("request body is not valid UTF-8")
    try:
        value = json.loads(text, parse_constant=_reject_constant, parse_float=_finite_float)
    except (ValueError, RecursionError) as e:
        raise bad(f"malformed JSON: {e}")
    check_strings(value)
    return value


# field validators --------------------------------------------------------

def req_str(body, name, allow_empty=True, nonblank=False):
    if name not in body or body[name] is None:
        raise bad(f"field '{name}' is required")
    v = body[name]
    if not isinstance(v, str):
        raise bad(f"field '{name}' must be a string")
    if not allow_empty and v == "":
        raise bad(f"field '{name}' must not be empty")
    if nonblank and v.strip() == "":
        raise bad(f"field '{name}' must not be blank")
    return v


def opt_str(body, name):
    v = body.get(name)
    if v is None:
        return None
    if not isinstance(v, str):
        raise bad(f"field '{name}' must be a string or null")
    return v


def opt_obj(body, name):
    v = body.get(name)
    if v is None:
        return None
    if not isinstance(v, dict):
        raise bad(f"field '{name}' must be an object or null")
    return v


def opt_bool(body, name):
    v = body.get(name)
    if v is None:
        return None
    if not isinstance(v, bool):
        raise bad(f"field '{name}' must be a boolean")
    return v


def as_int(v, name, minimum=None):
    if isinstance(v, bool) or not isinstance(v, int):
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        else:
            raise bad(f"'{name}' must be an integer")
    if minimum is not None and v < minimum:
        raise bad(f"'{name}' must be >= {minimum}")
    return v


def query_int(qs, name, default, minimum):
    vals = qs.get(name)
    if not vals:
        return default
    s = vals[-1].strip()
    if not re.fullmatch(r"[+-]?\d{1,40}", s):
        raise bad(f"query parameter '{name}' must be an integer")
    v = int(s)
    if v < minimum:
        raise bad(f"query parameter '{name}' must be >= {minimum}")
    return v


def to_camel(name):
    head, *rest = name.split("_")
    return head + "".join(w.capitalize() for w in rest)


def page_limit(v):
    return min(v, MAX_LIMIT)


# --------------------------------------------------------------------------
# JWT (RS256)
# --------------------------------------------------------------------------

class Signer:
    def __init__(self, kid):
        self.kid = kid
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.pub = self.key.public_key()

    def jwk(self):
        nums = self.pub.public_numbers()
        return {"kty": "RSA", "use": "sig", "alg": "RS256", "kid": self.kid,
                "n": int_to_b64u(nums.n), "e": int_to_b64u(nums.e)}

    def sign(self, claims, typ="JWT"):
        header = {"alg": "RS256", "typ": typ, "kid": self.kid}
        h = b64u(json.dumps(header, separators=(",", ":")).encode())
        p = b64u(json.dumps(claims, separators=(",", ":")).encode())
        sig = self.key.sign(f"{h}.{p}".encode("ascii"), padding.PKCS1v15(), hashes.SHA256())
        return f"{h}.{p}.{b64u(sig)}"

    def verify(self, token):
        """Return (header, claims) or raise ValueError. Checks signature only."""
        if not isinstance(token, str) or token.count(".") != 2:
            raise ValueError("not a JWT")
        h, p, s = token.split(".")
        header = json.loads(b64u_dec(h))
        if not isinstance(header, dict):
            raise ValueError("bad header")
        if header.get("alg") != "RS256":
            raise ValueError("unsupported alg")
        if header.get("kid") not in (None, self.kid):
            raise ValueError("unknown kid")
        sig = b64u_dec(s)
        self.pub.verify(sig, f"{h}.{p}".encode("ascii"), padding.PKCS1v15(), hashes.SHA256())
        claims = json.loads(b64u_dec(p))
        if not isinstance(claims, dict):
            raise ValueError("bad claims")
        return header, claims


def check_time_claims(claims, leeway=JWT_LEEWAY):
    now = utcnow().timestamp()
    exp = claims.get("exp")
    if isinstance(exp, bool) or not isinstance(exp, (int, float)):
        raise ValueError("missing exp")
    if now > exp + leeway:
        raise ValueError("token expired")
    nbf = claims.get("nbf")
    if isinstance(nbf, (int, float)) and not isinstance(nbf, bool) and now + leeway < nbf:
        raise ValueError("token not yet valid")


def aud_ok(claims, expected):
    aud = claims.get("aud")
    if isinstance(aud, str):
        return aud == expected
    if isinstance(aud, list):
        return expected in aud
    return False


# --------------------------------------------------------------------------
# Store
# --------------------------------------------------------------------------

ORG_SUFFIXES = {"corp", "corporation", "inc", "ltd", "llc", "gmbh", "company", "co",
                "labs", "university", "institute", "bank", "group", "foundation",
                "agency", "ministry", "association", "systems", "technologies"}
LOC_WORDS = {"city", "street", "river", "mountain", "county", "island", "lake",
             "park", "valley", "bay", "avenue", "road"}
KNOWN_LOCATIONS = {"new york", "san francisco", "los angeles", "new delhi",
                   "hong kong", "buenos aires", "rio de janeiro", "south africa",
                   "united states", "united kingdom", "new zealand", "costa rica"}
EXTRACT_RE = re.compile(r"\b([A-Z][a-z]+(?:[ ](?:[A-Z][a-z]+|de|of|the|van|von)){0,3}[ ][A-Z][a-z]+)\b")
STOP_LEADS = {"The", "A", "An", "This", "That", "These", "Those", "Hello", "Hi",
              "Dear", "Thanks", "Thank", "Please", "Yes", "No", "Ok", "Okay", "What",
              "When", "Where", "Why", "How", "Who", "Which", "I", "We", "You", "He",
              "She", "It", "They", "My", "Our", "Your", "His", "Her", "Their", "Good",
              "Great", "Today", "Tomorrow", "Yesterday", "Monday", "Tuesday", "Wednesday",
              "Thursday", "Friday", "Saturday", "Sunday", "Mr", "Mrs", "Ms", "Dr"}


class Store:
    def __init__(self):
        self.lock = threading.RLock()
        self.seq = 0
        self.last_time = None
        self.workspaces = {}       # id -> {id, name, createdAt}
        self.keys = {}             # key id -> record
        self.key_by_hash = {}      # sha256(plaintext) -> key id
        self.refresh = {}          # sha256(refresh token) -> record
        self.auth_codes = {}       # code -> record
        self.user_ws = {}          # idp subject -> workspace id
        self.conversations = {}    # id -> record
        self.messages = {}         # id -> record
        self.conv_msgs = {}        # conv id -> [message ids] (insertion order)
        self.entities = {}         # id -> record
        self.relationships = {}    # id -> {id, ws, source, target, type, props, seq}
        self.steps = {}            # id -> record
        self.tool_calls = {}       # id -> record
        self.observations = {}     # conv id -> [obs]
        self.reflections = {}      # conv id -> [refl]

    def next_seq(self):
        self.seq += 1
        return self.seq

    def now(self):
        """Monotonically non-decreasing timestamp (under lock)."""
        t = utcnow()
        if self.last_time is not None and t < self.last_time:
            t = self.last_time
        self.last_time = t
        return t

    def new_workspace(self, name):
        wid = str(uuid.uuid4())
        self.workspaces[wid] = {"id": wid, "name": name, "createdAt": self.now()}
        return wid

    # --- API keys ---------------------------------------------------------
    def create_key(self, ws, label, scopes, created_at=None, created_by=None):
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
        plaintext = API_KEY_PREFIX + "_" + "".join(secrets.choice(alphabet) for _ in range(40))
        kid = str(uuid.uuid4())
        created = created_at or self.now()
        lifetime = timedelta(weeks=90) if FAULT == "key-lifetime-weeks" else API_KEY_LIFETIME
        rec = {"id": kid, "label": label, "scopes": list(scopes), "workspaceId": ws,
               "createdAt": created, "expiresAt": created + lifetime,
               "revokedAt": None, "plaintext": plaintext, "seq": self.next_seq(),
               "hash": hashlib.sha256(plaintext.encode()).hexdigest(),
               "lastUsedAt": None, "createdBy": created_by}
        self.keys[kid] = rec
        self.key_by_hash[rec["hash"]] = kid
        return rec

    def key_status(self, rec, now=None):
        now = now or utcnow()
        if rec["revokedAt"] is not None:
            return "revoked"
        if now >= rec["expiresAt"]:
            return "expired"
        return "active"


# --------------------------------------------------------------------------
# The application
# --------------------------------------------------------------------------

class App:
    def __init__(self):
        self.store = Store()
        self.origin = None
        self.signer = Signer("svc-" + secrets.token_hex(4))
        self.idp = Signer("idp-" + secrets.token_hex(4))
        self.auth_cache = {}        # used only by fault revoke-cached
        self.meta_cache = {}        # used only by fault conv-get-after-delete
        self.old_signer = None
        if FAULT == "jwks-stale-key":
            self.old_signer = Signer(self.signer.kid)
        self.routes = []
        self._build_routes()

    # ------------------------------------------------------------------
    @property
    def issuer(self):
        return self.origin

    @property
    def idp_issuer(self):
        return self.origin + "/idp"

    @property
    def resource(self):
        return self.origin

    # --- tokens -------------------------------------------------------
    def issue_access_token(self, sub, ws, scopes, iat=None, ttl=ACCESS_TOKEN_TTL):
        iat = int(iat if iat is not None else utcnow().timestamp())
        claims = {"iss": self.issuer, "sub": sub, "aud": self.resource,
                  "iat": iat, "nbf": iat, "exp": iat + ttl, "jti": str(uuid.uuid4()),
                  "scope": " ".join(scopes), "workspace_id": ws, "client_id": "agent-memory-cli"}
        return self.signer.sign(claims, typ="at+jwt")

    def issue_refresh_token(self, sub, ws, scopes, family=None):
        tok = "namsr_" + secrets.token_urlsafe(32)
        h = hashlib.sha256(tok.encode()).hexdigest()
        self.store.refresh[h] = {"sub": sub, "ws": ws, "scopes": list(scopes),
                                 "expiresAt": utcnow() + REFRESH_TOKEN_TTL,
                                 "used": False, "family": family or str(uuid.uuid4())}
        return tok

    def token_response(self, sub, ws, scopes, family=None):
        out = {"access_token": self.issue_access_token(sub, ws, scopes),
               "token_type": "Bearer",
               "expires_in": ACCESS_TOKEN_TTL,
               "refresh_token": self.issue_refresh_token(sub, ws, scopes, family),
               "scope": " ".join(scopes)}
        if FAULT == "expires-in-string":
            out["expires_in"] = str(ACCESS_TOKEN_TTL)
        if FAULT == "token-fields-camel":
            out = {to_camel(k): v for k, v in out.items()}
        return out

    def issue_idp_token(self, sub, ws=None, ttl=IDP_TOKEN_DEFAULT_TTL, email=None, iat=None):
        iat = int(iat if iat is not None else utcnow().timestamp())
        claims = {"iss": self.idp_issuer, "sub": sub, "aud": self.resource,
                  "iat": iat, "exp": iat + ttl, "jti": str(uuid.uuid4()),
                  "email": email or f"{sub}@dev.local"}
        if ws:
            claims["workspace_id"] = ws
        return self.idp.sign(claims)

    def verify_idp_token(self, token, exchange=False):
        try:
            _, claims = self.idp.verify(token)
            if claims.get("iss") != self.idp_issuer:
                raise ValueError("wrong issuer")
            if not aud_ok(claims, self.resource):
                raise ValueError("wrong audience")
            if not (exchange and FAULT == "exchange-ignores-idp-expiry"):   # FAULT2: exp not checked
                check_time_claims(claims)
            sub = claims.get("sub")
            if not isinstance(sub, str) or not sub:
                raise ValueError("missing sub")
        except Exception as e:  # noqa: BLE001 - any failure is an invalid grant
            raise ApiError(401, "invalid_grant", f"identity provider token rejected: {e}")
        return claims

    def workspace_for_idp(self, claims):
        st = self.store
        ws = claims.get("workspace_id")
        if isinstance(ws, str) and ws in st.workspaces:
            return ws
        sub = claims["sub"]
        if sub not in st.user_ws:
            st.user_ws[sub] = st.new_workspace(f"personal workspace of {sub}")
        return st.user_ws[sub]

    # --- authentication ----------------------------------------------
    def www_auth(self, error=None, desc=None, scope=None):
        parts = ['Bearer realm="agent-memory"',
                 f'resource_metadata="{self.origin}/.well-known/oauth-protected-resource"']
        if error:
            parts.append(f'error="{error}"')
        if desc:
            parts.append('error_description="%s"' % desc.replace('"', "'"))
        if scope:
            parts.append(f'scope="{scope}"')
        return ", ".join(parts)

    def unauthorized(self, desc, presented=True):
        hdr = self.www_auth("invalid_token", desc) if presented else self.www_auth()
        code = "invalid_token" if presented else "unauthorized"
        return ApiError(401, code, desc, {"WWW-Authenticate": hdr})

    def authenticate(self, header):
        if header is None or header.strip() == "":
            raise self.unauthorized("missing Authorization header", presented=False)
        parts = header.strip().split(None, 1)
        if len(parts) != 2 or parts[0].lower() != "bearer" or not parts[1].strip():
            raise self.unauthorized("Authorization must be 'Bearer <credential>'")
        cred = parts[1].strip()
        st = self.store
        if cred.startswith(API_KEY_PREFIX + "_"):
            h = hashlib.sha256(cred.encode()).hexdigest()
            if FAULT == "revoke-cached" and h in self.auth_cache:
                return dict(self.auth_cache[h])
            with st.lock:
                kid = st.key_by_hash.get(h)
                if kid is None and FAULT == "key-hash-prefix-match":
                    # FAULT2: fallback lookup by the displayed key prefix (nams_ + 8 characters)
                    kid = next((k["id"] for k in st.keys.values()
                                if k["plaintext"][:13] == cred[:13]), None)
                rec = st.keys.get(kid) if kid else None
                if rec is None:
                    raise self.unauthorized("unknown API key")
                status = st.key_status(rec)
                if status == "revoked":
                    raise self.unauthorized("API key has been revoked")
                if status == "expired":
                    raise self.unauthorized("API key has expired (90-day lifetime)")
                rec["lastUsedAt"] = utcnow()
                out = {"kind": "api_key", "ws": rec["workspaceId"], "scopes": set(rec["scopes"]),
                       "sub": "key:" + rec["id"], "keyId": rec["id"]}
                if FAULT == "revoke-cached":
                    self.auth_cache[h] = dict(out)
                return out
        # JWT access token
        try:
            header_, claims = self.signer.verify(cred)
        except Exception:  # noqa: BLE001
            fallback = self._faulty_jwt(cred)
            if fallback is not None:
                return fallback
            raise self.unauthorized("credential is neither a valid API key nor a valid access token")
        if claims.get("iss") != self.issuer or not aud_ok(claims, self.resource):
            raise self.unauthorized("access token has wrong issuer or audience")
        if header_.get("typ") != "at+jwt":
            raise self.unauthorized("not an access token")
        try:
            check_time_claims(claims, JWT_LEEWAY * 1000 if FAULT == "jwt-leeway-units" else JWT_LEEWAY)
        except ValueError as e:
            raise self.unauthorized(f"access token rejected: {e}")
        ws = claims.get("workspace_id")
        with st.lock:
            if ws not in st.workspaces:
                raise self.unauthorized("access token names an unknown workspace")
        scope = claims.get("scope")
        scopes = set(scope.split()) if isinstance(scope, str) else set()
        return {"kind": "access_token", "ws": ws, "scopes": scopes,
                "sub": claims.get("sub"), "keyId": None}

    def _faulty_jwt(self, cred):
        """Only reached under a fault: accept what the correct server rejects."""
        if FAULT == "jwt-alg-none":
            try:
                h, p, _sig = cred.split(".")
                header = json.loads(b64u_dec(h))
                claims = json.loads(b64u_dec(p))
                if header.get("alg", "").lower() != "none" or not isinstance(claims, dict):
                    return None
                check_time_claims(claims)
            except Exception:  # noqa: BLE001
                return None
            ws = claims.get("workspace_id")
            if ws not in self.store.workspaces:
                return None
            scope = claims.get("scope")
            return {"kind": "access_token", "ws": ws,
                    "scopes": set(scope.split()) if isinstance(scope, str) else set(SCOPES),
                    "sub": claims.get("sub"), "keyId": None}
        if FAULT == "idp-token-as-access":
            try:
                _, claims = self.idp.verify(cred)
                check_time_claims(claims)
            except Exception:  # noqa: BLE001
                return None
            if not isinstance(claims.get("sub"), str):
                return None
            with self.store.lock:
                ws = self.workspace_for_idp(claims)
            return {"kind": "access_token", "ws": ws, "scopes": set(SCOPES),
                    "sub": claims["sub"], "keyId": None}
        return None

    # --- routing ------------------------------------------------------
    def _build_routes(self):
        U = r"([0-9a-fA-F-]{1,64}|[^/]+)"
        r = self.routes

        def add(method, pattern, fn, scope):
            r.append((method, re.compile("^" + pattern + "$"), fn, scope))

        add("GET", "/v1/conversations", self.list_conversations, "read")
        add("POST", "/v1/conversations", self.create_conversation, "write")
        add("GET", f"/v1/conversations/{U}", self.get_conversation_metadata, "read")
        add("DELETE", f"/v1/conversations/{U}", self.delete_conversation, "write")
        add("GET", f"/v1/conversations/{U}/messages", self.get_messages, "read")
        add("POST", f"/v1/conversations/{U}/messages", self.add_message, "write")
        add("POST", f"/v1/conversations/{U}/messages/bulk", self.bulk_add, "write")
        add("POST", f"/v1/conversations/{U}/search", self.search_messages, "read")
        add("GET", f"/v1/conversations/{U}/context", self.get_context, "read")
        add("GET", f"/v1/conversations/{U}/observations", self.get_observations, "read")
        add("GET", f"/v1/conversations/{U}/reflections", self.get_reflections, "read")
        add("GET", "/v1/entities/graph", self.entity_graph, "read")
        add("POST", "/v1/entities/search", self.search_entities, "read")
        add("GET", "/v1/entities", self.list_entities, "read")
        add("POST", "/v1/entities", self.add_entity, "write")
        add("GET", f"/v1/entities/{U}", self.get_entity, "read")
        add("PUT", f"/v1/entities/{U}", self.update_entity, "write")
        add("DELETE", f"/v1/entities/{U}", self.delete_entity, "write")
        add("PUT", f"/v1/entities/{U}/feedback", self.entity_feedback, "write")
        add("GET", f"/v1/entities/{U}/history", self.entity_history, "read")
        add("POST", f"/v1/entities/{U}/merge", self.merge_entities, "write")
        add("POST", "/v1/reasoning/steps", self.record_step, "write")
        add("GET", "/v1/reasoning/steps", self.list_steps, "read")
        add("GET", f"/v1/reasoning/explain/{U}", self.explain_step, "read")
        add("POST", "/v1/reasoning/tool-calls", self.record_tool_call, "write")
        add("GET", f"/v1/reasoning/trace/{U}", self.trace_by_conversation, "read")
        add("GET", f"/v1/reasoning/provenance/{U}", self.entity_provenance, "read")
        add("POST", "/v1/query", self.cypher_query, "read")
        add("GET", "/v1/auth/api-keys", self.list_api_keys, "read")
        add("POST", "/v1/auth/api-keys", self.create_api_key, "write")
        add("DELETE", f"/v1/auth/api-keys/{U}", self.revoke_api_key, "write")
        add("GET", f"/v1/auth/api-keys/{U}/reveal", self.reveal_api_key, "write")
        add("POST", "/v1/auth/exchange", self.token_exchange, None)
        add("POST", "/v1/auth/refresh", self.token_refresh, None)
        # origin-level, unauthenticated
        add("GET", "/.well-known/oauth-protected-resource", self.prm, None)
        add("GET", "/.well-known/oauth-protected-resource/v1", self.prm_v1, None)
        add("GET", "/.well-known/oauth-authorization-server", self.asm, None)
        add("GET", "/.well-known/jwks.json", self.jwks, None)
        add("GET", "/oauth/authorize", self.oauth_authorize, None)
        add("POST", "/oauth/token", self.oauth_token, None)
        add("GET", "/idp/.well-known/openid-configuration", self.idp_config, None)
        add("GET", "/idp/jwks.json", self.idp_jwks, None)
        add("POST", "/idp/token", self.idp_mint, None)

    def match(self, method, path):
        """Return (fn, scope, args, public) or raise 404/405."""
        found = [(m, fn, scope, mo.groups()) for m, rx, fn, scope in self.routes
                 for mo in [rx.match(path)] if mo]
        # literal paths (/entities/graph, /entities/search) are operations, never identifiers
        if any(not g for _, _, _, g in found):
            found = [f for f in found if not f[3]]
        allowed = []
        for m, fn, scope, groups in found:
            if m == method:
                return fn, scope, groups
            allowed.append(m)
        if allowed:
            raise ApiError(405, "method_not_allowed", f"method {method} not allowed on {path}",
                           {"Allow": ", ".join(sorted(set(allowed)))})
        raise ApiError(404, "not_found", f"no such endpoint: {path}")

    def dispatch(self, method, raw_path, headers, read_body):
        parsed = urllib.parse.urlsplit(raw_path)
        path = parsed.path
        qs = urllib.parse.parse_qs(parsed.query, keep_blank_values=True)
        is_v1 = path == "/v1" or path.startswith("/v1/")
        public = path in ("/v1/auth/exchange", "/v1/auth/refresh") or not is_v1
        caller = None
        if not public:
            caller = self.authenticate(headers.get("Authorization"))
        # special-case: /v1/entities/graph|search must not be taken as ids for other methods
        fn, scope, args = self.match(method, path)
        if caller is not None and scope is not None and scope not in caller["scopes"]:
            raise ApiError(403, "insufficient_scope",
                           f"this operation needs the '{scope}' scope",
                           {"WWW-Authenticate": self.www_auth("insufficient_scope",
                                                              "insufficient scope", scope)})
        ctx = {"caller": caller, "qs": qs, "headers": headers, "read_body": read_body,
               "method": method, "path": path}
        return fn(ctx, *args)

    # body helper --------------------------------------------------------
    def body(self, ctx, required=True):
        raw = ctx["read_body"]()
        if not raw.strip():
            if required:
                raise bad("request body must be a JSON object")
            return {}
        v = parse_json(raw)
        if not isinstance(v, dict):
            raise bad("request body must be a JSON object")
        return v

    # ------------------------------------------------------------------
    # representations
    # ------------------------------------------------------------------
    def conv_out(self, c):
        st = self.store
        return {"id": c["id"], "userId": c["userId"], "workspaceId": c["ws"],
                "title": c["title"], "metadata": c["metadata"],
                "messageCount": len(st.conv_msgs.get(c["id"], [])),
                "createdAt": iso(c["createdAt"]),
                "updatedAt": iso(c["updatedAt"]) if c["updatedAt"] else None}

    def msg_out(self, m):
        t = iso(m["createdAt"])
        return {"id": m["id"], "conversationId": m["conv"], "role": m["role"],
                "content": m["content"], "metadata": m["metadata"],
                "timestamp": t, "createdAt": t}

    def ent_out(self, e, with_rels=False):
        out = {"id": e["id"], "name": e["name"],
               "type": e["type"].capitalize() if FAULT == "entity-type-label-case" else e["type"],
               "subtype": e["subtype"], "description": e["description"],
               "canonicalName": e["canonicalName"], "attributes": e["attributes"],
               "workspaceId": e["ws"], "source": e["source"],
               "userScore": e["userScore"], "confirmed": e["confirmed"],
               "mergedInto": e["mergedInto"],
               "createdAt": iso(e["createdAt"]),
               "updatedAt": iso(e["updatedAt"]) if e["updatedAt"] else None}
        if with_rels:
            out["relationships"] = [self.rel_out(r) for r in self.entity_rels(e["id"])]
        return out

    def rel_out(self, r):
        return {"id": r["id"], "source": r["source"], "target": r["target"],
                "type": r["type"], "properties": r["props"]}

    def step_out(self, s):
        return {"id": s["id"], "conversationId": s["conv"], "reasoning": s["reasoning"],
                "actionTaken": s["actionTaken"], "result": s["result"],
                "stepNumber": s["stepNumber"],
                "influencedEntityIds": list(s["entityIds"]),
                "createdAt": iso(s["createdAt"])}

    def tc_out(self, t):
        return {"id": t["id"], "stepId": t["step"], "conversationId": t["conv"],
                "toolName": t["toolName"], "arguments": t["arguments"],
                "result": t["result"], "status": t["status"],
                "durationMs": t["durationMs"], "error": t["error"],
                "createdAt": iso(t["createdAt"])}

    def key_out(self, k):
        st = self.store
        return {"id": k["id"], "label": k["label"], "scopes": list(k["scopes"]),
                "workspaceId": k["workspaceId"], "prefix": k["plaintext"][:9],
                "status": st.key_status(k),
                "createdAt": iso(k["createdAt"]), "expiresAt": iso(k["expiresAt"]),
                "revokedAt": iso(k["revokedAt"]) if k["revokedAt"] else None,
                "lastUsedAt": iso(k["lastUsedAt"]) if k["lastUsedAt"] else None}

    def obs_out(self, o):
        return {"id": o["id"], "conversationId": o["conv"], "content": o["content"],
                "windowStart": iso(o["windowStart"]), "windowEnd": iso(o["windowEnd"]),
                "messageIds": list(o["messageIds"]), "createdAt": iso(o["createdAt"])}

    def refl_out(self, r):
        return {"id": r["id"], "conversationId": r["conv"], "content": r["content"],
                "createdAt": iso(r["createdAt"])}

    # ------------------------------------------------------------------
    # lookups scoped to the caller's workspace
    # ------------------------------------------------------------------
    def get_conv(self, ctx, cid):
        c = self.store.conversations.get(norm_id(cid))
        if c is None or c["ws"] != ctx["caller"]["ws"]:
            raise not_found("conversation")
        return c

    def get_ent(self, ctx, eid):
        e = self.store.entities.get(norm_id(eid))
        if e is None or e["ws"] != ctx["caller"]["ws"]:
            raise not_found("entity")
        return e

    def get_step(self, ctx, sid):
        s = self.store.steps.get(norm_id(sid))
        if s is None or s["ws"] != ctx["caller"]["ws"]:
            raise not_found("reasoning step")
        return s

    def entity_rels(self, eid):
        rels = [r for r in self.store.relationships.values()
                if r["source"] == eid or r["target"] == eid]
        rels.sort(key=lambda r: r["seq"])
        return rels

    def list_window(self, ctx, items, key_name, default=DEFAULT_LIMIT):
        qs = ctx["qs"]
        limit = page_limit(query_int(qs, "limit", default, 1))
        offset = query_int(qs, "offset", 0, 0)
        page = items[offset:offset + limit]
        nxt = offset + len(page) if offset + len(page) < len(items) else None
        return {key_name: page, "total": len(items), "limit": limit, "offset": offset,
                "nextOffset": nxt}

    # ------------------------------------------------------------------
    # conversations
    # ------------------------------------------------------------------
    def list_conversations(self, ctx):
        st = self.store
        ws = ctx["caller"]["ws"]
        uid = ctx["qs"].get("userId", [None])[-1]
        with st.lock:
            convs = [c for c in st.conversations.values() if c["ws"] == ws
                     and (uid is None or c["userId"] == uid)]
            if FAULT == "list-limit-before-sort":
                convs.sort(key=lambda c: c["seq"])
                out = self.list_window(ctx, [self.conv_out(c) for c in convs], "conversations")
                out["conversations"].reverse()
                return 200, out
            convs.sort(key=lambda c: c["seq"], reverse=True)   # newest first
            out = [self.conv_out(c) for c in convs]
            if FAULT == "conv-list-snake-case":
                for o in out:
                    o["created_at"] = o.pop("createdAt")
                    o["updated_at"] = o.pop("updatedAt")
        return 200, self.list_window(ctx, out, "conversations")

    def create_conversation(self, ctx):
        b = self.body(ctx)
        user_id = req_str(b, "userId", allow_empty=False)
        if FAULT == "conversation-userid-trimmed":
            user_id = user_id.strip() or user_id     # FAULT2: input "sanitised"
        metadata = opt_obj(b, "metadata") or {}
        title = opt_str(b, "title")
        st = self.store
        with st.lock:
            now = st.now()
            c = {"id": str(uuid.uuid4()), "ws": ctx["caller"]["ws"], "userId": user_id,
                 "title": title, "metadata": metadata, "createdAt": now, "updatedAt": None,
                 "seq": st.next_seq()}
            st.conversations[c["id"]] = c
            st.conv_msgs[c["id"]] = []
            st.observations[c["id"]] = []
            st.reflections[c["id"]] = []
            return 201, self.conv_out(c)

    def get_conversation_metadata(self, ctx, cid):
        with self.store.lock:
            if FAULT == "conv-get-after-delete":
                hit = self.meta_cache.get(norm_id(cid))
                if hit is not None and hit["workspaceId"] == ctx["caller"]["ws"]:
                    return 200, dict(hit)
                out = self.conv_out(self.get_conv(ctx, cid))
                self.meta_cache[out["id"]] = dict(out)
                return 200, out
            if FAULT == "conv-get-cross-workspace":
                c = self.store.conversations.get(norm_id(cid))
                if c is None:
                    raise not_found("conversation")
                return 200, self.conv_out(c)
            return 200, self.conv_out(self.get_conv(ctx, cid))

    def delete_conversation(self, ctx, cid):
        st = self.store
        with st.lock:
            c = st.conversations.get(norm_id(cid))
            if FAULT == "delete-conv-twice-500" and c is None:
                c = st.conversations[norm_id(cid)]      # KeyError -> 500
            if c is None or (c["ws"] != ctx["caller"]["ws"] and FAULT != "delete-conv-cross-workspace"):
                return 204, None          # idempotent (SPEC-5.1.3); FAULT2 (cross-workspace): no ws check
            cid = c["id"]
            for mid in st.conv_msgs.pop(cid, []):
                if FAULT != "delete-conv-leaves-messages":
                    st.messages.pop(mid, None)
            st.observations.pop(cid, None)
            st.reflections.pop(cid, None)
            for sid in [s["id"] for s in st.steps.values() if s["conv"] == cid]:
                st.steps.pop(sid, None)
            for tid in [t["id"] for t in st.tool_calls.values() if t["conv"] == cid]:
                st.tool_calls.pop(tid, None)
            del st.conversations[cid]
        return 204, None

    def get_messages(self, ctx, cid):
        st = self.store
        with st.lock:
            c = self.get_conv(ctx, cid)
            msgs = [self.msg_out(st.messages[m]) for m in st.conv_msgs[c["id"]]]
            out = self.list_window(ctx, msgs, "messages", default=MAX_LIMIT)
            out["conversationId"] = c["id"]
            return 200, out

    def _validate_message(self, b, prefix=""):
        role = b.get("role")
        if role is None:
            raise bad(f"field '{prefix}role' is required")
        if not isinstance(role, str) or role not in ROLES:
            raise bad(f"field '{prefix}role' must be one of user, assistant, system")
        if "content" not in b or b["content"] is None:
            raise bad(f"field '{prefix}content' is required")
        if not isinstance(b["content"], str):
            raise bad(f"field '{prefix}content' must be a string")
        md = b.get("metadata")
        if md is not None and not isinstance(md, dict):
            raise bad(f"field '{prefix}metadata' must be an object or null")
        if FAULT == "metadata-bigint-double" and md:
            # FAULT2: numbers stored as IEEE doubles: integers beyond 2**53 lose precision
            md = {k: (float(v) if isinstance(v, int) and not isinstance(v, bool) and abs(v) > 2 ** 53 else v)
                  for k, v in md.items()}
        return role, b["content"], md or {}

    def _store_message(self, c, role, content, metadata):
        st = self.store
        if FAULT == "content-truncate-10000":
            content = content[:10000]
        if FAULT == "content-nfkc":
            content = unicodedata.normalize("NFKC", content)
        if FAULT == "content-control-chars-stripped":
            # FAULT2: a sanitiser drops C0 controls other than TAB/LF/CR, and DEL
            content = "".join(ch for ch in content if not (ord(ch) < 32 and ch not in "\t\n\r") and ch != "\x7f")
        now = st.now()
        m = {"id": str(uuid.uuid4()), "conv": c["id"], "ws": c["ws"], "role": role,
             "content": content, "metadata": metadata, "createdAt": now,
             "seq": st.next_seq()}
        st.messages[m["id"]] = m
        st.conv_msgs[c["id"]].append(m["id"])
        self.meta_cache.pop(c["id"], None)
        c["updatedAt"] = now
        self._extract_entities(c["ws"], content, now)
        self._update_summaries(c)
        return m

    def add_message(self, ctx, cid):
        b = self.body(ctx)
        role, content, md = self._validate_message(b)
        st = self.store
        with st.lock:
            if FAULT == "add-message-cross-workspace" and norm_id(cid) in st.conversations:
                c = st.conversations[norm_id(cid)]      # FAULT2: no workspace check on the write path
            else:
                c = self.get_conv(ctx, cid)
            m = self._store_message(c, role, content, md)
            return 201, self.msg_out(m)

    def bulk_add(self, ctx, cid):
        b = self.body(ctx)
        msgs = b.get("messages")
        if not isinstance(msgs, list):
            raise bad("field 'messages' must be an array")
        if len(msgs) > (BULK_MAX + 1 if FAULT == "bulk-cap-101" else BULK_MAX):
            raise bad(f"at most {BULK_MAX} messages per bulk request (got {len(msgs)})",
                      "too_many_messages")
        valid = []
        for i, item in enumerate(msgs):
            if not isinstance(item, dict):
                raise bad(f"messages[{i}] must be an object")
            if FAULT == "bulk-empty-content-rejected" and item.get("content") == "":
                raise bad(f"messages[{i}].content must not be empty")   # FAULT2: bulk-only validator
            valid.append(self._validate_message(item, f"messages[{i}]."))
        st = self.store
        if FAULT == "bulk-concurrent-lost-update":
            return self._bulk_lost_update(ctx, cid, valid)
        with st.lock:
            c = self.get_conv(ctx, cid)
            if FAULT == "bulk-stored-reversed":
                # FAULT2: written by a stack: stored last-first, the answer re-sorted to the input order
                out = [self.msg_out(self._store_message(c, *v)) for v in reversed(valid)][::-1]
            else:
                out = [self.msg_out(self._store_message(c, *v)) for v in valid]
            if FAULT == "bulk-response-reversed":
                out.reverse()
            return 201, {"conversationId": c["id"], "messages": out}

    def _bulk_lost_update(self, ctx, cid, valid):
        """FAULT2 bulk-concurrent-lost-update: read-modify-write of the message list without the lock."""
        import time
        st = self.store
        with st.lock:
            c = self.get_conv(ctx, cid)
            snapshot = list(st.conv_msgs[c["id"]])
        time.sleep(0.3)         # the "round trip" between reading and writing the list
        with st.lock:
            before = list(st.conv_msgs[c["id"]])
            out = [self.msg_out(self._store_message(c, *v)) for v in valid]
            new_ids = st.conv_msgs[c["id"]][len(before):]
            st.conv_msgs[c["id"]] = snapshot + new_ids      # overwrites what others added meanwhile
            return 201, {"conversationId": c["id"], "messages": out}

    def search_messages(self, ctx, cid):
        b = self.body(ctx)
        q = req_str(b, "query")
        limit = b.get("limit", 10)
        limit = 10 if limit is None else page_limit(as_int(limit, "limit", 1))
        thr = b.get("threshold", 0.0)
        if thr is None:
            thr = 0.0
        if isinstance(thr, bool) or not isinstance(thr, (int, float)) or not 0 <= thr <= 1:
            raise bad("'threshold' must be a number in [0, 1]")
        st = self.store
        with st.lock:
            c = self.get_conv(ctx, cid)
            scored = []
            pool = list(st.conv_msgs[c["id"]])
            if FAULT == "search-spans-user-conversations":
                # FAULT2: joined on the user, not the conversation
                pool = [m["id"] for m in sorted(st.messages.values(), key=lambda m: m["seq"])
                        if m["conv"] in st.conversations and st.conversations[m["conv"]]["userId"] == c["userId"]
                        and m["ws"] == c["ws"]]
            for mid in pool:
                m = st.messages[mid]
                s = score_text(q, m["content"])
                if s > 0 and s >= thr:
                    scored.append((s, m["seq"], m))
            scored.sort(key=lambda x: (-x[0], x[1]))
            res = []
            if FAULT == "search-limit-threshold-path" and "threshold" in b:
                limit = len(scored)
            for s, _, m in scored[:limit]:
                o = self.msg_out(m)
                o["score"] = round(s, 6)
                res.append(o)
            return 200, {"conversationId": c["id"], "query": q, "messages": res}

    def get_context(self, ctx, cid):
        st = self.store
        n = page_limit(query_int(ctx["qs"], "limit", CONTEXT_RECENT, 1))
        with st.lock:
            c = self.get_conv(ctx, cid)
            ids = st.conv_msgs[c["id"]]
            recent = [self.msg_out(st.messages[m]) for m in (ids[:n] if FAULT == "context-recent-oldest-window"
                                                            else ids[-n:])]   # FAULT2: ASC LIMIT n
            return 200, {"conversationId": c["id"],
                         "reflections": [self.refl_out(r) for r in st.reflections[c["id"]]],
                         "observations": [self.obs_out(o) for o in st.observations[c["id"]]],
                         "recentMessages": recent}

    def get_observations(self, ctx, cid):
        st = self.store
        with st.lock:
            c = self.get_conv(ctx, cid)
            obs = [self.obs_out(o) for o in st.observations[c["id"]]]
            out = self.list_window(ctx, obs, "observations")
            out["conversationId"] = c["id"]
            return 200, out

    def get_reflections(self, ctx, cid):
        st = self.store
        with st.lock:
            c = self.get_conv(ctx, cid)
            return 200, {"conversationId": c["id"],
                         "reflections": [self.refl_out(r) for r in st.reflections[c["id"]]]}

    # --- derived memory: observations, reflections, extraction --------
    def _update_summaries(self, c):
        st = self.store
        ids = st.conv_msgs[c["id"]]
        obs = st.observations[c["id"]]
        while (len(obs) + 1) * OBS_WINDOW <= len(ids):
            k = len(obs)
            window = [st.messages[m] for m in ids[k * OBS_WINDOW:(k + 1) * OBS_WINDOW]]
            roles = {}
            for m in window:
                roles[m["role"]] = roles.get(m["role"], 0) + 1
            terms = top_terms(" ".join(m["content"] for m in window), 5)
            content = (f"Messages {k * OBS_WINDOW + 1}-{(k + 1) * OBS_WINDOW}: "
                       + ", ".join(f"{n} {r}" for r, n in sorted(roles.items()))
                       + (f"; topics: {', '.join(terms)}" if terms else ""))
            obs.append({"id": str(uuid.uuid4()), "conv": c["id"], "content": content,
                        "windowStart": window[0]["createdAt"], "windowEnd": window[-1]["createdAt"],
                        "messageIds": [m["id"] for m in window], "createdAt": st.now()})
            # a reflection replaces the prior ones as the conversation evolves
            all_terms = top_terms(" ".join(o["content"].split("topics:")[-1] for o in obs), 5)
            st.reflections[c["id"]] = [{
                "id": str(uuid.uuid4()), "conv": c["id"], "createdAt": st.now(),
                "content": (f"Across {len(obs)} observation(s) of {len(ids)} messages "
                            f"the conversation centres on: {', '.join(all_terms) or 'no topic'}")}]

    def _extract_entities(self, ws, content, now):
        st = self.store
        existing = {e["name"].casefold() for e in st.entities.values() if e["ws"] == ws}
        for mo in EXTRACT_RE.finditer(content or ""):
            phrase = mo.group(1)
            words = phrase.split(" ")
            while words and words[0] in STOP_LEADS:
                words = words[1:]
            if len(words) < 2:
                continue
            name = " ".join(words)
            if name.casefold() in existing:
                continue
            last = words[-1].casefold()
            if last in ORG_SUFFIXES:
                etype = "ORGANIZATION"
            elif last in LOC_WORDS or name.casefold() in KNOWN_LOCATIONS:
                etype = "LOCATION"
            else:
                etype = "PERSON"
            e = self._new_entity(ws, name, etype, None, None, None, {}, "extracted", now)
            existing.add(name.casefold())
            st.entities[e["id"]] = e

    def _new_entity(self, ws, name, etype, desc, subtype, canonical, attrs, source, now):
        return {"id": str(uuid.uuid4()), "ws": ws, "name": name, "type": etype,
                "description": desc, "subtype": subtype, "canonicalName": canonical,
                "attributes": attrs, "source": source, "userScore": None,
                "confirmed": False, "mergedInto": None, "createdAt": now,
                "updatedAt": None, "seq": self.store.next_seq(), "events": [], "indexName": name,
                "stepIds": []}

    # ------------------------------------------------------------------
    # entities
    # ------------------------------------------------------------------
    def _entity_type(self, b, required):
        t = b.get("type", b.get("entityType"))
        if t is None:
            if required:
                raise bad("field 'type' is required")
            return None
        if not isinstance(t, str) or t.upper() not in ENTITY_TYPES:
            raise bad("field 'type' must be one of " + ", ".join(ENTITY_TYPES))
        return t.upper()

    def _relationships_input(self, ctx, b):
        rels = b.get("relationships")
        if rels is None:
            return []
        if not isinstance(rels, list) or len(rels) > 100:
            raise bad("field 'relationships' must be an array of at most 100 items")
        out = []
        for i, r in enumerate(rels):
            if not isinstance(r, dict):
                raise bad(f"relationships[{i}] must be an object")
            tid = r.get("targetId")
            rtype = r.get("type", "RELATED_TO")
            if not isinstance(tid, str):
                raise bad(f"relationships[{i}].targetId must be a string")
            if not isinstance(rtype, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,63}", rtype):
                raise bad(f"relationships[{i}].type must be an identifier")
            props = r.get("properties") or {}
            if not isinstance(props, dict):
                raise bad(f"relationships[{i}].properties must be an object")
            out.append((tid, rtype.upper(), props))
        return out

    def _add_rels(self, ctx, eid, rels):
        st = self.store
        for tid, rtype, props in rels:
            target = self.get_ent(ctx, tid)
            rid = str(uuid.uuid4())
            st.relationships[rid] = {"id": rid, "ws": ctx["caller"]["ws"], "source": eid,
                                     "target": target["id"], "type": rtype, "props": props,
                                     "seq": st.next_seq()}

    def add_entity(self, ctx, ):
        b = self.body(ctx)
        name = req_str(b, "name", nonblank=True)
        etype = self._entity_type(b, True)
        desc = opt_str(b, "description")
        subtype = opt_str(b, "subtype")
        canonical = opt_str(b, "canonicalName")
        attrs = opt_obj(b, "attributes") or {}
        rels = self._relationships_input(ctx, b)
        step_id = b.get("stepId")
        if step_id is not None and not isinstance(step_id, str):
            raise bad("field 'stepId' must be a string")
        st = self.store
        with st.lock:
            if step_id is not None:
                self.get_step(ctx, step_id)
            for tid, _, _ in rels:
                self.get_ent(ctx, tid)
            e = self._new_entity(ctx["caller"]["ws"], name, etype, desc, subtype, canonical,
                                 attrs, "api", st.now())
            if step_id is not None:
                e["stepIds"].append(norm_id(step_id))
            e["events"].append({"kind": "created", "at": e["createdAt"], "changes": {}})
            st.entities[e["id"]] = e
            self._add_rels(ctx, e["id"], rels)
            return 201, self.ent_out(e, with_rels=True)

    def visible_entities(self, ws, include_merged=False):
        ents = [e for e in self.store.entities.values() if e["ws"] == ws
                and (include_merged or e["mergedInto"] is None)]
        ents.sort(key=lambda e: e["seq"])
        return ents

    def list_entities(self, ctx):
        qs = ctx["qs"]
        t = qs.get("type", [None])[-1]
        if t is not None:
            if t.upper() not in ENTITY_TYPES:
                raise bad("query parameter 'type' must be one of " + ", ".join(ENTITY_TYPES))
            t = t.upper()
        with self.store.lock:
            ents = [self.ent_out(e) for e in self.visible_entities(ctx["caller"]["ws"])
                    if t is None or e["type"] == t]
            return 200, self.list_window(ctx, ents, "entities")

    def get_entity(self, ctx, eid):
        with self.store.lock:
            return 200, self.ent_out(self.get_ent(ctx, eid), with_rels=True)

    def update_entity(self, ctx, eid):
        b = self.body(ctx)
        changes = {}
        if "name" in b:
            changes["name"] = req_str(b, "name", nonblank=True)
        for f in ("description", "subtype", "canonicalName"):
            if f in b:
                changes[f] = opt_str(b, f)
        if "type" in b or "entityType" in b:
            changes["type"] = self._entity_type(b, True)
        if "attributes" in b:
            changes["attributes"] = opt_obj(b, "attributes") or {}
        rels = self._relationships_input(ctx, b)
        if not changes and not rels:
            raise bad("no updatable field given (name, description, type, subtype, "
                      "canonicalName, attributes, relationships)")
        st = self.store
        with st.lock:
            e = self.get_ent(ctx, eid)
            for tid, _, _ in rels:
                self.get_ent(ctx, tid)
            before = {k: e[k] for k in changes}
            e.update(changes)
            e["updatedAt"] = st.now()
            e["events"].append({"kind": "updated", "at": e["updatedAt"],
                                "changes": {k: {"from": before[k], "to": changes[k]} for k in changes}})
            self._add_rels(ctx, e["id"], rels)
            return 200, self.ent_out(e, with_rels=True)

    def delete_entity(self, ctx, eid):
        st = self.store
        with st.lock:
            e = self.get_ent(ctx, eid)
            del st.entities[e["id"]]
            for rid in [r["id"] for r in st.relationships.values()
                        if r["source"] == e["id"] or r["target"] == e["id"]]:
                del st.relationships[rid]
            for other in st.entities.values():
                if other["mergedInto"] == e["id"]:
                    other["mergedInto"] = None
        return 204, None

    def entity_feedback(self, ctx, eid):
        b = self.body(ctx)
        if "userScore" not in b or b["userScore"] is None:
            raise bad("field 'userScore' is required")
        score = b["userScore"]
        if (isinstance(score, bool) and FAULT != "feedback-bool-as-score") or not isinstance(score, (int, float)):
            raise bad("field 'userScore' must be a number")     # FAULT2 (bool-as-score): true passes as 1
        if not 0 <= score <= (100 if FAULT == "feedback-percent-range" else 1):
            raise bad("field 'userScore' must be within [0, 1]")
        confirmed = opt_bool(b, "confirmed")
        st = self.store
        with st.lock:
            e = self.get_ent(ctx, eid)
            e["userScore"] = score
            if confirmed is not None:
                e["confirmed"] = confirmed
            e["updatedAt"] = st.now()
            e["events"].append({"kind": "feedback", "at": e["updatedAt"],
                                "changes": {"userScore": score, "confirmed": e["confirmed"]}})
            return 200, {"id": e["id"], "updated": True, "userScore": e["userScore"],
                         "confirmed": e["confirmed"]}

    def entity_names(self, e):
        """Names under which an entity is mentioned: its own, canonical, merged sources'."""
        st = self.store
        names = {e["name"]}
        if e["canonicalName"]:
            names.add(e["canonicalName"])
        stack = [e["id"]]
        seen = {e["id"]}
        while stack:
            cur = stack.pop()
            for o in st.entities.values():
                if o["mergedInto"] == cur and o["id"] not in seen:
                    seen.add(o["id"])
                    names.add(o["name"])
                    if o["canonicalName"]:
                        names.add(o["canonicalName"])
                    stack.append(o["id"])
        return {n for n in names if n and n.strip()}

    def entity_history(self, ctx, eid):
        st = self.store
        with st.lock:
            e = self.get_ent(ctx, eid)
            pats = [re.compile(r"(?<!\w)" + re.escape(n.casefold()) + r"(?!\w)")
                    for n in sorted(self.entity_names(e))]
            mentions = []
            for m in sorted((m for m in st.messages.values() if m["ws"] == e["ws"]),
                            key=lambda m: m["seq"]):
                text = m["content"].casefold()
                if any(p.search(text) for p in pats):
                    mentions.append({"conversationId": m["conv"], "messageId": m["id"],
                                     "content": m["content"], "timestamp": iso(m["createdAt"])})
            if FAULT == "history-first-conversation-only" and mentions:
                first = mentions[0]["conversationId"]
                mentions = [m for m in mentions if m["conversationId"] == first]
            events = [{"kind": ev["kind"], "at": iso(ev["at"]), "changes": ev["changes"]}
                      for ev in e["events"]]
            return 200, {"entityId": e["id"], "mentions": mentions, "events": events}

    def merge_entities(self, ctx, eid):
        b = self.body(ctx)
        tid = b.get("targetId")
        sid = b.get("sourceId")
        if tid is None and sid is None:
            raise bad("field 'targetId' is required (the entity in the path is merged into it)")
        for n, v in (("targetId", tid), ("sourceId", sid)):
            if v is not None and not isinstance(v, str):
                raise bad(f"field '{n}' must be a string")
        if tid is not None and sid is not None:
            if norm_id(sid) != norm_id(eid) and norm_id(tid) != norm_id(eid):
                raise bad("one of sourceId/targetId must be the entity in the path")
            src_id, dst_id = sid, tid
        elif tid is not None:
            src_id, dst_id = eid, tid
        else:
            src_id, dst_id = sid, eid
        st = self.store
        with st.lock:
            src = self.get_ent(ctx, src_id)
            dst = self.get_ent(ctx, dst_id)
            if src["id"] == dst["id"]:
                raise bad("an entity cannot be merged into itself")
            if src["mergedInto"] is not None:
                raise ApiError(409, "conflict", "source entity was already merged")
            if dst["mergedInto"] is not None:
                raise ApiError(409, "conflict", "target entity was merged into another entity")
            now = st.now()
            # the target retains the relationships of both
            for r in list(st.relationships.values()):
                if FAULT == "merge-drops-rels":
                    break
                if r["type"] == "SAME_AS":
                    continue
                if r["source"] == src["id"] or r["target"] == src["id"]:
                    ns = dst["id"] if r["source"] == src["id"] else r["source"]
                    nt = dst["id"] if r["target"] == src["id"] else r["target"]
                    if ns == nt:
                        continue
                    if any(x["source"] == ns and x["target"] == nt and x["type"] == r["type"]
                           for x in st.relationships.values()):
                        continue
                    rid = str(uuid.uuid4())
                    st.relationships[rid] = {"id": rid, "ws": r["ws"], "source": ns, "target": nt,
                                             "type": r["type"],
                                             "props": {} if FAULT == "merge-drops-rel-properties" else dict(r["props"]),
                                             "seq": st.next_seq()}
            rid = str(uuid.uuid4())
            a, z = (dst["id"], src["id"]) if FAULT == "merge-same-as-reversed" else (src["id"], dst["id"])
            st.relationships[rid] = {"id": rid, "ws": src["ws"], "source": a,
                                     "target": z, "type": "SAME_AS",
                                     "props": {"mergedAt": iso(now)}, "seq": st.next_seq()}
            src["mergedInto"] = dst["id"]
            src["updatedAt"] = now
            dst["updatedAt"] = now
            src["events"].append({"kind": "merged_into", "at": now, "changes": {"targetId": dst["id"]}})
            dst["events"].append({"kind": "merged_from", "at": now, "changes": {"sourceId": src["id"]}})
            return 200, {"sourceId": src["id"], "targetId": dst["id"], "status": "merged",
                         "sameAsRelationshipId": rid}

    def entity_graph(self, ctx):
        st = self.store
        ws = ctx["caller"]["ws"]
        with st.lock:
            nodes = [{"id": e["id"], "name": e["name"], "type": e["type"]}
                     for e in self.visible_entities(ws, include_merged=FAULT != "graph-hides-merged-source")]
            rels = sorted((r for r in st.relationships.values() if r["ws"] == ws),
                          key=lambda r: r["seq"])
            edges = [{"id": r["id"], "source": r["source"], "target": r["target"], "type": r["type"]}
                     for r in rels]
            return 200, {"nodes": nodes, "edges": edges}

    def search_entities(self, ctx):
        b = self.body(ctx)
        q = req_str(b, "query")
        limit = b.get("limit", 10)
        limit = 10 if limit is None else page_limit(as_int(limit, "limit", 1))
        t = b.get("type")
        if t is not None:
            if not isinstance(t, str) or t.upper() not in ENTITY_TYPES:
                raise bad("field 'type' must be one of " + ", ".join(ENTITY_TYPES))
            t = t.upper()
        with self.store.lock:
            scored = []
            for e in self.visible_entities(ctx["caller"]["ws"]):
                if t is not None and e["type"] != t:
                    continue
                if FAULT == "entity-search-stale-index":
                    s = entity_score(q, dict(e, name=e.get("indexName", e["name"])))
                else:
                    s = entity_score(q, e)
                if s > 0:
                    scored.append((s, e["seq"], e))
            scored.sort(key=lambda x: (-x[0], x[1]))
            res = []
            if FAULT == "search-entities-type-no-limit" and t is not None:
                limit = len(scored)     # FAULT2: the type-filtered code path forgets the limit
            for s, _, e in scored[:limit]:
                o = self.ent_out(e)
                o["score"] = round(s, 6)
                res.append(o)
            return 200, {"query": q, "entities": res}

    # ------------------------------------------------------------------
    # reasoning
    # ------------------------------------------------------------------
    def _id_list(self, b, name):
        v = b.get(name)
        if v is None:
            return []
        if not isinstance(v, list) or len(v) > 100 or not all(isinstance(x, str) for x in v):
            raise bad(f"field '{name}' must be an array of at most 100 identifiers")
        return v

    def record_step(self, ctx):
        b = self.body(ctx)
        conv_id = req_str(b, "conversationId")
        reasoning = req_str(b, "reasoning")
        action = req_str(b, "actionTaken")
        result = opt_str(b, "result")
        ent_ids = self._id_list(b, "influencedEntityIds") or self._id_list(b, "entityIds")
        st = self.store
        with st.lock:
            c = self.get_conv(ctx, conv_id)
            ents = [self.get_ent(ctx, x)["id"] for x in ent_ids]
            n = sum(1 for s in st.steps.values() if s["conv"] == c["id"])
            s = {"id": str(uuid.uuid4()), "ws": c["ws"], "conv": c["id"], "reasoning": reasoning,
                 "actionTaken": action, "result": result, "entityIds": list(dict.fromkeys(ents)),
                 "stepNumber": n + 1, "createdAt": st.now(), "seq": st.next_seq()}
            st.steps[s["id"]] = s
            return 201, self.step_out(s)

    def list_steps(self, ctx):
        st = self.store
        cid = ctx["qs"].get("conversationId", [None])[-1]
        with st.lock:
            if cid is not None:
                c = self.get_conv(ctx, cid)
                steps = [s for s in st.steps.values() if s["conv"] == c["id"]]
            else:
                steps = [s for s in st.steps.values() if s["ws"] == ctx["caller"]["ws"]]
            steps.sort(key=lambda s: s["seq"])
            out = self.list_window(ctx, [self.step_out(s) for s in steps], "steps")
            if cid is not None:
                out["conversationId"] = norm_id(cid)
            return 200, out

    def influenced(self, s):
        st = self.store
        ids = list(s["entityIds"])
        for e in sorted(st.entities.values(), key=lambda e: e["seq"]):
            if s["id"] in e["stepIds"] and e["id"] not in ids:
                ids.append(e["id"])
        return [st.entities[i] for i in ids if i in st.entities]

    def explain_step(self, ctx, sid):
        st = self.store
        with st.lock:
            s = self.get_step(ctx, sid)
            out = self.step_out(s)
            tcs = sorted((t for t in st.tool_calls.values()
                          if (t["conv"] == s["conv"] if FAULT == "explain-tool-calls-conversation-wide"
                              else t["step"] == s["id"])),
                         key=lambda t: t["seq"])
            out["toolCalls"] = [self.tc_out(t) for t in tcs]
            out["influencedEntities"] = [self.ent_out(e) for e in self.influenced(s)]
            return 200, out

    def record_tool_call(self, ctx):
        b = self.body(ctx)
        step_id = opt_str(b, "stepId")
        conv_id = opt_str(b, "conversationId")
        if step_id is None and conv_id is None:
            raise bad("field 'stepId' is required")
        tool = req_str(b, "toolName", allow_empty=False)
        args = b.get("arguments")
        if args is None:
            args = {}
        if not isinstance(args, dict):
            raise bad("field 'arguments' must be an object")
        status = b.get("status", "success")
        if status is None:
            status = "success"
        if not isinstance(status, str) or status not in TOOL_STATUSES:
            raise bad("field 'status' must be one of " + ", ".join(TOOL_STATUSES))
        dur = b.get("durationMs")
        if dur is not None:
            dur = as_int(dur, "durationMs", 0)
        err = opt_str(b, "error")
        st = self.store
        with st.lock:
            s = self.get_step(ctx, step_id) if step_id is not None else None
            if conv_id is not None:
                c = self.get_conv(ctx, conv_id)
                if s is not None and s["conv"] != c["id"]:
                    raise bad("the step does not belong to that conversation")
            conv = s["conv"] if s is not None else c["id"]
            t = {"id": str(uuid.uuid4()), "ws": ctx["caller"]["ws"],
                 "step": s["id"] if s else None, "conv": conv, "toolName": tool,
                 "arguments": args, "result": b.get("result"), "status": status,
                 "durationMs": dur, "error": err, "createdAt": st.now(), "seq": st.next_seq()}
            st.tool_calls[t["id"]] = t
            return 201, self.tc_out(t)

    def trace_by_conversation(self, ctx, cid):
        st = self.store
        with st.lock:
            c = self.get_conv(ctx, cid)
            steps = sorted((s for s in st.steps.values() if s["conv"] == c["id"]),
                           key=lambda s: s["seq"])
            tcs = sorted((t for t in st.tool_calls.values() if t["conv"] == c["id"]),
                         key=lambda t: t["seq"])
            return 200, {"conversationId": c["id"], "steps": [self.step_out(s) for s in steps],
                         "toolCalls": [self.tc_out(t) for t in tcs]}

    def entity_provenance(self, ctx, eid):
        st = self.store
        with st.lock:
            e = self.get_ent(ctx, eid)
            ids = {e["id"]}
            stack = [e["id"]]
            while stack:
                cur = stack.pop()
                for o in st.entities.values():
                    if o["mergedInto"] == cur and o["id"] not in ids:
                        ids.add(o["id"])
                        stack.append(o["id"])
            step_ids = set()
            for i in ids:
                step_ids.update(st.entities[i]["stepIds"])
            steps = [s for s in st.steps.values()
                     if s["id"] in step_ids or ids.intersection(s["entityIds"])]
            steps.sort(key=lambda s: s["seq"])
            return 200, {"entityId": e["id"], "steps": [self.step_out(s) for s in steps]}

    # ------------------------------------------------------------------
    # graph query
    # ------------------------------------------------------------------
    def cypher_query(self, ctx):
        b = self.body(ctx)
        q = b.get("query", b.get("cypher"))
        if not isinstance(q, str) or not q.strip():
            raise bad("field 'query' (a graph query string) is required")
        if len(q) > 10000:
            raise bad("query too long (max 10000 characters)")
        params = b.get("params", b.get("parameters")) or {}
        if not isinstance(params, dict):
            raise bad("field 'params' must be an object")
        from_graph = GraphView(self, ctx["caller"]["ws"])
        with self.store.lock:
            return 200, run_query(q, params, from_graph)

    # ------------------------------------------------------------------
    # API keys and tokens
    # ------------------------------------------------------------------
    def list_api_keys(self, ctx):
        ws = ctx["qs"].get("workspaceId", [None])[-1]
        caller = ctx["caller"]
        if ws is None or ws == "":
            ws = caller["ws"]
        if norm_id(ws) != caller["ws"]:
            raise ApiError(403, "forbidden", "keys of another workspace cannot be listed")
        st = self.store
        with st.lock:
            keys = sorted((k for k in st.keys.values() if k["workspaceId"] == caller["ws"]),
                          key=lambda k: k["seq"])
            out = self.list_window(ctx, [dict(self.key_out(k), key=k["plaintext"])
                                         if FAULT == "list-keys-leak-plaintext" else self.key_out(k)
                                         for k in keys], "apiKeys")     # FAULT2: plaintext in the list
            out["workspaceId"] = caller["ws"]
            return 200, out

    def create_api_key(self, ctx):
        b = self.body(ctx)
        caller = ctx["caller"]
        label = req_str(b, "label", allow_empty=False)
        if len(label) > 200:
            raise bad("field 'label' must be at most 200 characters")
        scopes = b.get("scopes")
        if not isinstance(scopes, list) or not scopes or not all(isinstance(s, str) for s in scopes):
            raise bad("field 'scopes' must be a non-empty array of strings")
        for s in scopes:
            if s not in SCOPES:
                raise bad(f"unknown scope '{s}' (known: read, write)", "invalid_scope")
        scopes = [s for s in SCOPES if s in scopes]
        if not set(scopes) <= caller["scopes"]:
            raise ApiError(403, "insufficient_scope", "a key cannot get scopes its creator lacks")
        ws = b.get("workspaceId")
        if ws is None:
            ws = caller["ws"]
        if not isinstance(ws, str):
            raise bad("field 'workspaceId' must be a string")
        if norm_id(ws) != caller["ws"]:
            raise ApiError(403, "forbidden", "keys can only be created in the caller's workspace")
        st = self.store
        with st.lock:
            rec = st.create_key(caller["ws"], label, scopes, created_by=caller["sub"])
            out = self.key_out(rec)
            out["key"] = rec["plaintext"]
            return 201, out

    def _key_in_ws(self, ctx, kid):
        k = self.store.keys.get(norm_id(kid))
        if k is None or k["workspaceId"] != ctx["caller"]["ws"]:
            raise not_found("API key")
        return k

    def revoke_api_key(self, ctx, kid):
        st = self.store
        with st.lock:
            k = self._key_in_ws(ctx, kid)
            if k["revokedAt"] is None:
                k["revokedAt"] = st.now()
            if FAULT == "revoke-by-label":
                # FAULT2: revocation keyed on (workspace, label): namesake keys go too
                for o in st.keys.values():
                    if o["workspaceId"] == k["workspaceId"] and o["label"] == k["label"] and o["revokedAt"] is None:
                        o["revokedAt"] = st.now()
        return 204, None

    def reveal_api_key(self, ctx, kid):
        st = self.store
        with st.lock:
            if FAULT == "reveal-cross-workspace":
                k = st.keys.get(norm_id(kid))
                if k is None:
                    raise not_found("API key")
            else:
                k = self._key_in_ws(ctx, kid)
            if k["revokedAt"] is not None:
                raise ApiError(410, "gone", "the key was revoked; it can no longer be revealed")
            out = self.key_out(k)
            out["key"] = k["plaintext"]
            return 200, out

    def _token_input(self, b, names):
        for n in names:
            if n in b and b[n] is not None:
                v = b[n]
                if not isinstance(v, str) or not v:
                    raise bad(f"field '{n}' must be a non-empty string")
                return v
        return None

    def _requested_scopes(self, b):
        sc = b.get("scope")
        if sc is None:
            return list(SCOPES)
        if not isinstance(sc, str):
            raise bad("field 'scope' must be a space-separated string")
        want = sc.split()
        for s in want:
            if s not in SCOPES:
                raise ApiError(400, "invalid_scope", f"unknown scope '{s}'")
        return [s for s in SCOPES if s in want] or list(SCOPES)

    def token_exchange(self, ctx):
        b = self.body(ctx, required=False)
        tok = self._token_input(b, ("idpToken", "subjectToken", "subject_token", "token",
                                    "idToken", "id_token"))
        if tok is None:
            h = ctx["headers"].get("Authorization")
            if h and h.strip().lower().startswith("bearer "):
                tok = h.strip()[7:].strip()
        if not tok:
            raise bad("field 'idpToken' (the identity provider token) is required")
        scopes = self._requested_scopes(b)
        claims = self.verify_idp_token(tok, exchange=True)
        st = self.store
        with st.lock:
            ws = self.workspace_for_idp(claims)
            return 200, self.token_response(claims["sub"], ws, scopes)

    def _do_refresh(self, tok):
        st = self.store
        h = hashlib.sha256(tok.encode()).hexdigest()
        with st.lock:
            rec = st.refresh.get(h)
            if rec is None:
                raise ApiError(401, "invalid_grant", "unknown refresh token")
            if rec["used"]:
                raise ApiError(401, "invalid_grant", "refresh token was already used (rotated)")
            if utcnow() >= rec["expiresAt"]:
                raise ApiError(401, "invalid_grant", "refresh token expired")
            if rec["ws"] not in st.workspaces:
                raise ApiError(401, "invalid_grant", "workspace no longer exists")
            if FAULT != "refresh-reuse":
                rec["used"] = True
            out = self.token_response(rec["sub"], rec["ws"], rec["scopes"], rec["family"])
            if FAULT == "refresh-returns-spent-token":
                out["refresh_token"] = tok     # FAULT2: the spent token is echoed instead of the new one
            return out

    def token_refresh(self, ctx):
        b = self.body(ctx, required=False)
        tok = self._token_input(b, ("refreshToken", "refresh_token"))
        if tok is None:
            raise bad("field 'refreshToken' is required")
        return 200, self._do_refresh(tok)

    # ------------------------------------------------------------------
    # discovery
    # ------------------------------------------------------------------
    def prm(self, ctx):
        return 200, {"resource": self.resource + ("/v1" if FAULT == "prm-resource-v1" else ""),
                     "authorization_servers": [self.issuer],
                     "jwks_uri": self.origin + "/.well-known/jwks.json",
                     "scopes_supported": list(SCOPES),
                     "bearer_methods_supported": ["header"],
                     "resource_name": "Agent Memory Service (hosted REST, /v1)",
                     "resource_documentation": self.origin + "/v1"}

    def prm_v1(self, ctx):
        out = self.prm(ctx)[1]
        out["resource"] = self.origin + "/v1"
        return 200, out

    def asm(self, ctx):
        o = self.origin
        return 200, {"issuer": self.issuer + ("/" if FAULT == "asm-issuer-trailing-slash" else ""),
                     "authorization_endpoint": o + "/oauth/authorize",
                     "token_endpoint": o + "/oauth/token",
                     "jwks_uri": o + "/.well-known/jwks.json",
                     "scopes_supported": list(SCOPES),
                     **({} if FAULT == "asm-no-response-types" else {"response_types_supported": ["code"]}),
                     "response_modes_supported": ["query"],
                     "grant_types_supported": ["authorization_code", "refresh_token",
                                               "urn:ietf:params:oauth:grant-type:token-exchange"],
                     "token_endpoint_auth_methods_supported": ["none"],
                     "code_challenge_methods_supported": ["S256"],
                     "service_documentation": o + "/v1"}

    def jwks(self, ctx):
        if FAULT == "jwks-leaks-private-key":
            # FAULT2: the private JWK (d, p, q, ...) is published instead of the public one
            pn = self.signer.key.private_numbers()
            jwk = dict(self.signer.jwk(), d=int_to_b64u(pn.d), p=int_to_b64u(pn.p), q=int_to_b64u(pn.q),
                       dp=int_to_b64u(pn.dmp1), dq=int_to_b64u(pn.dmq1), qi=int_to_b64u(pn.iqmp))
            return 200, {"keys": [jwk]}
        if FAULT == "jwks-stale-key":
            return 200, {"keys": [self.old_signer.jwk()]}
        return 200, {"keys": [self.signer.jwk()]}

    # --- OAuth 2.0 authorization code + PKCE (dev login via IdP token) --
    def oauth_authorize(self, ctx):
        qs = {k: v[-1] for k, v in ctx["qs"].items()}
        redirect = qs.get("redirect_uri")
        if not redirect or not re.match(r"^https?://", redirect):
            raise bad("redirect_uri (absolute http(s) URL) is required")
        for p in ("client_id", "code_challenge"):
            if not qs.get(p):
                raise bad(f"{p} is required")
        if qs.get("response_type") != "code":
            raise ApiError(400, "unsupported_response_type", "response_type must be code")
        if qs.get("code_challenge_method", "S256") != "S256":
            raise bad("code_challenge_method must be S256")
        hint = qs.get("id_token_hint") or qs.get("login_hint_token")
        if not hint:
            raise ApiError(401, "login_required",
                           "dev login: pass the identity provider token as id_token_hint")
        claims = self.verify_idp_token(hint)
        scopes = self._requested_scopes({"scope": qs.get("scope")})
        code = secrets.token_urlsafe(24)
        with self.store.lock:
            ws = self.workspace_for_idp(claims)
            self.store.auth_codes[code] = {"sub": claims["sub"], "ws": ws, "scopes": scopes,
                                           "challenge": qs["code_challenge"],
                                           "client_id": qs["client_id"], "redirect": redirect,
                                           "expiresAt": utcnow() + timedelta(minutes=5)}
        q = {"code": code}
        if "state" in qs:
            q["state"] = qs["state"]
        sep = "&" if "?" in redirect else "?"
        return 302, None, {"Location": redirect + sep + urllib.parse.urlencode(q)}

    def oauth_token(self, ctx):
        raw = ctx["read_body"]()
        ctype = (ctx["headers"].get("Content-Type") or "").split(";")[0].strip().lower()
        if ctype == "application/json":
            form = parse_json(raw) if raw.strip() else {}
            if not isinstance(form, dict):
                raise bad("body must be an object")
        else:
            try:
                form = {k: v[-1] for k, v in urllib.parse.parse_qs(raw.decode("utf-8")).items()}
            except UnicodeDecodeError:
                raise bad("body is not UTF-8")
        try:
            return self._oauth_grant(form)
        except ApiError as e:
            if e.status == 401:   # RFC 6749 section 5.2: invalid_grant is a 400
                raise ApiError(400, e.code, e.message)
            raise

    def _oauth_grant(self, form):
        gt = form.get("grant_type")
        if gt == "authorization_code":
            code = form.get("code")
            verifier = form.get("code_verifier")
            with self.store.lock:
                rec = self.store.auth_codes.pop(code, None) if isinstance(code, str) else None
            if rec is None or utcnow() >= rec["expiresAt"]:
                raise ApiError(400, "invalid_grant", "unknown or expired authorization code")
            if not isinstance(verifier, str):
                raise ApiError(400, "invalid_grant", "code_verifier is required")
            calc = b64u(hashlib.sha256(verifier.encode("ascii", "replace")).digest())
            if not hmac.compare_digest(calc, rec["challenge"]):
                raise ApiError(400, "invalid_grant", "PKCE verification failed")
            if form.get("redirect_uri") not in (None, rec["redirect"]):
                raise ApiError(400, "invalid_grant", "redirect_uri mismatch")
            with self.store.lock:
                return 200, self.token_response(rec["sub"], rec["ws"], rec["scopes"])
        if gt == "refresh_token":
            tok = form.get("refresh_token")
            if not isinstance(tok, str):
                raise bad("refresh_token is required")
            return 200, self._do_refresh(tok)
        if gt == "urn:ietf:params:oauth:grant-type:token-exchange":
            tok = form.get("subject_token")
            if not isinstance(tok, str):
                raise bad("subject_token is required")
            claims = self.verify_idp_token(tok)
            with self.store.lock:
                ws = self.workspace_for_idp(claims)
                return 200, self.token_response(claims["sub"], ws, list(SCOPES))
        raise ApiError(400, "unsupported_grant_type", "unsupported grant_type")

    # --- the development identity provider ------------------------------
    def idp_config(self, ctx):
        return 200, {"issuer": self.idp_issuer, "jwks_uri": self.origin + "/idp/jwks.json",
                     "token_endpoint": self.origin + "/idp/token",
                     "id_token_signing_alg_values_supported": ["RS256"]}

    def idp_jwks(self, ctx):
        return 200, {"keys": [self.idp.jwk()]}

    def idp_mint(self, ctx):
        b = self.body(ctx, required=False)
        sub = b.get("sub", "dev-user")
        if not isinstance(sub, str) or not sub or len(sub) > 200:
            raise bad("field 'sub' must be a non-empty string")
        ws = b.get("workspaceId")
        if ws is not None:
            if not isinstance(ws, str) or norm_id(ws) not in self.store.workspaces:
                raise bad("field 'workspaceId' must name an existing workspace")
            ws = norm_id(ws)
        ttl = b.get("expiresIn", IDP_TOKEN_DEFAULT_TTL)
        ttl = as_int(ttl, "expiresIn")
        if not -30 * 86400 <= ttl <= 7 * 86400:
            raise bad("field 'expiresIn' must be within [-30 days, 7 days] in seconds")
        email = opt_str(b, "email")
        return 200, {"id_token": self.issue_idp_token(sub, ws, ttl, email), "token_type": "Bearer",
                     "expires_in": ttl}


# --------------------------------------------------------------------------
# scoring helpers
# --------------------------------------------------------------------------

STOPWORDS = {"the", "a", "an", "and", "or", "of", "to", "in", "on", "for", "is", "are",
             "was", "were", "be", "it", "this", "that", "with", "as", "at", "by", "i",
             "you", "we", "he", "she", "they", "my", "your", "me", "do", "does", "not"}


def top_terms(text, n):
    counts = {}
    for t in tokens(text):
        if t in STOPWORDS or len(t) < 3 or t.isdigit():
            continue
        counts[t] = counts.get(t, 0) + 1
    return [t for t, _ in sorted(counts.items(), key=lambda x: (-x[1], x[0]))[:n]]


def score_text(query, text):
    qf = query.casefold().strip()
    if not qf:
        return 0.0
    tf = (text or "").casefold()
    if qf in tf:
        return 1.0
    qt = set(tokens(query))
    if not qt:
        return 0.0
    tt = set(tokens(text))
    return len(qt & tt) / len(qt)


def entity_score(query, e):
    qf = query.casefold().strip()
    if not qf:
        return 0.0
    name = e["name"].casefold()
    if qf == name:
        return 1.0
    if name.startswith(qf):
        return 0.9
    if qf in name or (e["canonicalName"] and qf in e["canonicalName"].casefold()):
        return 0.8
    hay = " ".join(x for x in (e["name"], e["canonicalName"], e["description"]) if x)
    if qf in hay.casefold():
        return 0.6
    s = score_text(query, hay)
    return 0.5 * s


# --------------------------------------------------------------------------
# read-only graph query subset
# --------------------------------------------------------------------------

class GraphView:
    """Nodes and relationships of one workspace, as seen by the query engine."""

    def __init__(self, app, ws):
        self.app = app
        self.ws = ws

    def nodes(self):
        app, st, ws = self.app, self.app.store, self.ws
        out = []
        for c in sorted((c for c in st.conversations.values() if c["ws"] == ws), key=lambda c: c["seq"]):
            out.append(({"Conversation"}, app.conv_out(c)))
        for m in sorted((m for m in st.messages.values() if m["ws"] == ws), key=lambda m: m["seq"]):
            out.append(({"Message"}, app.msg_out(m)))
        for e in app.visible_entities(ws, include_merged=True):
            out.append(({"Entity", e["type"].capitalize()}, app.ent_out(e)))
        for s in sorted((s for s in st.steps.values() if s["ws"] == ws), key=lambda s: s["seq"]):
            out.append(({"ReasoningStep"}, app.step_out(s)))
        for t in sorted((t for t in st.tool_calls.values() if t["ws"] == ws), key=lambda t: t["seq"]):
            out.append(({"ToolCall"}, app.tc_out(t)))
        return out

    def rels(self, node_index, wanted=None):
        """List of (type, source_id, target_id, props, rel_id)."""
        app, st, ws = self.app, self.app.store, self.ws
        out = []
        for c in sorted((c for c in st.conversations.values() if c["ws"] == ws), key=lambda c: c["seq"]):
            ids = st.conv_msgs.get(c["id"], [])
            for i, mid in enumerate(ids):
                out.append(("HAS_MESSAGE", c["id"], mid, {}, f"hm-{mid}"))
                if i == 0:
                    out.append(("FIRST_MESSAGE", c["id"], mid, {}, f"fm-{mid}"))
                else:
                    out.append(("NEXT_MESSAGE", ids[i - 1], mid, {}, f"nm-{mid}"))
        for r in sorted((r for r in st.relationships.values() if r["ws"] == ws), key=lambda r: r["seq"]):
            out.append((r["type"], r["source"], r["target"], r["props"], r["id"]))
        for s in sorted((s for s in st.steps.values() if s["ws"] == ws), key=lambda s: s["seq"]):
            out.append(("HAS_STEP", s["conv"], s["id"], {}, f"hs-{s['id']}"))
            for e in app.influenced(s):
                out.append(("INFLUENCED", s["id"], e["id"], {}, f"inf-{s['id']}-{e['id']}"))
        for t in sorted((t for t in st.tool_calls.values() if t["ws"] == ws), key=lambda t: t["seq"]):
            if t["step"]:
                out.append(("HAS_TOOL_CALL", t["step"], t["id"], {}, f"htc-{t['id']}"))
        # mentions: message -> entity by name (costly: only when the query can use them)
        if wanted is not None and "MENTIONS" not in wanted:
            return out
        ents = app.visible_entities(ws, include_merged=True)
        pats = [(e["id"], re.compile(r"(?<!\w)" + re.escape(e["name"].casefold()) + r"(?!\w)"))
                for e in ents]
        for m in sorted((m for m in st.messages.values() if m["ws"] == ws), key=lambda m: m["seq"]):
            text = m["content"].casefold()
            for eid, p in pats:
                if p.search(text):
                    out.append(("MENTIONS", m["id"], eid, {}, f"mn-{m['id']}-{eid}"))
        return out


WRITE_KEYWORDS = {"CREATE", "MERGE", "DELETE", "DETACH", "SET", "REMOVE", "DROP", "FOREACH",
                  "LOAD", "GRANT", "REVOKE", "DENY", "ALTER", "RENAME", "INSERT"}
UNSUPPORTED_KEYWORDS = {"CALL", "USE", "WITH", "UNWIND", "UNION", "OPTIONAL", "SHOW"}

TOKEN_RE = re.compile(r"""
    (?P<ws>\s+|//[^\n]*|/\*.*?\*/)
  | (?P<str>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")
  | (?P<num>\d+\.\d+|\d+)
  | (?P<param>\$[A-Za-z_][A-Za-z0-9_]*)
  | (?P<ident>`[^`]+`|[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op><>|<=|>=|!=|->|<-|=~|[-=<>(){}\[\]:,.*|+/%])
""", re.VERBOSE | re.DOTALL)


def unescape_cypher_str(s):
    body = s[1:-1]
    out = []
    i = 0
    esc = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "\\": "\\", "'": "'", '"': '"'}
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            nx = body[i + 1]
            if nx == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", body[i + 2:i + 6] or ""):
                out.append(chr(int(body[i + 2:i + 6], 16)))
                i += 6
                continue
            out.append(esc.get(nx, nx))
            i += 2
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def lex(q):
    toks = []
    pos = 0
    while pos < len(q):
        mo = TOKEN_RE.match(q, pos)
        if not mo:
            raise bad(f"unsupported character in query at offset {pos}", "query_syntax")
        pos = mo.end()
        kind = mo.lastgroup
        val = mo.group(kind)
        if kind == "ws":
            continue
        if kind == "str":
            toks.append(("str", unescape_cypher_str(val)))
        elif kind == "num":
            toks.append(("num", float(val) if "." in val else int(val)))
        elif kind == "ident":
            toks.append(("ident", val[1:-1] if val.startswith("`") else val))
        else:
            toks.append((kind, val))
    return toks


class QParser:
    def __init__(self, toks, params):
        self.t = toks
        self.i = 0
        self.params = params

    def peek(self, k=0):
        j = self.i + k
        return self.t[j] if j < len(self.t) else (None, None)

    def kw(self, *words):
        k, v = self.peek()
        return k == "ident" and v.upper() in words

    def take(self):
        tok = self.peek()
        self.i += 1
        return tok

    def expect_op(self, op):
        k, v = self.take()
        if k != "op" or v != op:
            raise bad(f"expected '{op}' in query, found {v!r}", "query_syntax")

    def expect_kw(self, w):
        if not self.kw(w):
            raise bad(f"expected {w} in query, found {self.peek()[1]!r}", "query_syntax")
        self.i += 1

    def ident(self):
        k, v = self.take()
        if k != "ident":
            raise bad(f"expected a name in query, found {v!r}", "query_syntax")
        return v

    def is_op(self, op):
        k, v = self.peek()
        return k == "op" and v == op

    # query := [MATCH patterns [WHERE expr]] RETURN items [ORDER BY ..] [SKIP n] [LIMIT n]
    def parse(self):
        patterns = []
        where = None
        if self.kw("OPTIONAL"):
            raise bad("OPTIONAL MATCH is not supported", "unsupported_query")
        if self.kw("MATCH"):
            self.i += 1
            patterns.append(self.pattern())
            while self.is_op(","):
                self.i += 1
                patterns.append(self.pattern())
            if self.kw("WHERE"):
                self.i += 1
                where = self.expr()
        self.expect_kw("RETURN")
        distinct = False
        if self.kw("DISTINCT"):
            self.i += 1
            distinct = True
        items = [self.ret_item()]
        while self.is_op(","):
            self.i += 1
            items.append(self.ret_item())
        order = []
        skip = 0
        limit = None
        if self.kw("ORDER"):
            self.i += 1
            self.expect_kw("BY")
            while True:
                e = self.expr()
                desc = False
                if self.kw("DESC", "DESCENDING"):
                    self.i += 1
                    desc = True
                elif self.kw("ASC", "ASCENDING"):
                    self.i += 1
                order.append((e, desc))
                if not self.is_op(","):
                    break
                self.i += 1
        if self.kw("SKIP"):
            self.i += 1
            skip = self.int_value()
        if self.kw("LIMIT"):
            self.i += 1
            limit = self.int_value()
        if self.peek()[0] is not None:
            raise bad(f"unsupported query text near {self.peek()[1]!r} "
                      "(supported: MATCH ... WHERE ... RETURN ... ORDER BY ... SKIP ... LIMIT)",
                      "unsupported_query")
        return {"patterns": patterns, "where": where, "distinct": distinct, "items": items,
                "order": order, "skip": skip, "limit": limit}

    def int_value(self):
        k, v = self.take()
        if k == "num" and isinstance(v, int):
            return v
        if k == "param":
            pv = self.params.get(v[1:])
            if isinstance(pv, int) and not isinstance(pv, bool) and pv >= 0:
                return pv
        raise bad("SKIP/LIMIT need a non-negative integer", "query_syntax")

    def node(self):
        self.expect_op("(")
        var = None
        labels = []
        props = {}
        if self.peek()[0] == "ident":
            var = self.ident()
        while self.is_op(":"):
            self.i += 1
            labels.append(self.ident())
        if self.is_op("{"):
            props = self.map_lit()
        self.expect_op(")")
        return {"var": var, "labels": labels, "props": props}

    def map_lit(self):
        self.expect_op("{")
        props = {}
        if not self.is_op("}"):
            while True:
                k = self.ident()
                self.expect_op(":")
                props[k] = self.expr()
                if not self.is_op(","):
                    break
                self.i += 1
        self.expect_op("}")
        return props

    def pattern(self):
        nodes = [self.node()]
        rels = []
        while self.is_op("-") or self.is_op("<-"):
            left = self.take()[1] == "<-"
            var = None
            types = []
            props = {}
            if self.is_op("["):
                self.i += 1
                if self.peek()[0] == "ident":
                    var = self.ident()
                if self.is_op(":"):
                    self.i += 1
                    types.append(self.ident())
                    while self.is_op("|"):
                        self.i += 1
                        if self.is_op(":"):
                            self.i += 1
                        types.append(self.ident())
                if self.is_op("*"):
                    raise bad("variable-length relationships are not supported", "unsupported_query")
                if self.is_op("{"):
                    props = self.map_lit()
                self.expect_op("]")
            k, v = self.take()
            if v == "->":
                direction = "out"
            elif v == "-":
                direction = "in" if left else "any"
            else:
                raise bad("malformed relationship pattern", "query_syntax")
            if left and direction == "out":
                raise bad("malformed relationship pattern", "query_syntax")
            rels.append({"var": var, "types": types, "props": props, "dir": direction})
            nodes.append(self.node())
            if len(rels) > 3:
                raise bad("at most 3 hops per pattern are supported", "unsupported_query")
        return {"nodes": nodes, "rels": rels}

    def ret_item(self):
        if self.is_op("*"):
            self.i += 1
            return {"expr": ("star",), "alias": "*"}
        start = self.i
        e = self.expr()
        alias = None
        if self.kw("AS"):
            self.i += 1
            alias = self.ident()
        if alias is None:
            alias = render_tokens(self.t[start:self.i])
        return {"expr": e, "alias": alias}

    # expressions: or > and > not > comparison > additive > atom
    def expr(self):
        if FAULT == "cypher-or-binds-tighter":
            # FAULT2: precedence inverted: OR/XOR bind tighter than AND
            left = self._or_tight()
            while self.kw("AND"):
                self.i += 1
                left = ("and", left, self._or_tight())
            return left
        left = self.and_expr()
        while self.kw("OR", "XOR"):
            op = self.take()[1].upper()
            left = (op.lower(), left, self.and_expr())
        return left

    def _or_tight(self):
        left = self.not_expr()
        while self.kw("OR", "XOR"):
            op = self.take()[1].upper()
            left = (op.lower(), left, self.not_expr())
        return left

    def and_expr(self):
        left = self.not_expr()
        while self.kw("AND"):
            self.i += 1
            left = ("and", left, self.not_expr())
        return left

    def not_expr(self):
        if self.kw("NOT"):
            self.i += 1
            return ("not", self.not_expr())
        return self.comparison()

    def comparison(self):
        left = self.additive()
        while True:
            k, v = self.peek()
            if k == "op" and v in ("=", "<>", "!=", "<", ">", "<=", ">="):
                self.i += 1
                left = ("cmp", "<>" if v == "!=" else v, left, self.additive())
            elif self.kw("CONTAINS"):
                self.i += 1
                left = ("cmp", "contains", left, self.additive())
            elif self.kw("STARTS"):
                self.i += 1
                self.expect_kw("WITH")
                left = ("cmp", "starts", left, self.additive())
            elif self.kw("ENDS"):
                self.i += 1
                self.expect_kw("WITH")
                left = ("cmp", "ends", left, self.additive())
            elif self.kw("IN"):
                self.i += 1
                left = ("cmp", "in", left, self.additive())
            elif self.kw("IS"):
                self.i += 1
                neg = False
                if self.kw("NOT"):
                    self.i += 1
                    neg = True
                self.expect_kw("NULL")
                left = ("isnull", left, neg)
            else:
                return left

    def additive(self):
        left = self.atom()
        while self.is_op("+") or self.is_op("-"):
            op = self.take()[1]
            left = ("arith", op, left, self.atom())
        return left

    def atom(self):
        k, v = self.peek()
        if k == "num":
            self.i += 1
            return ("lit", v)
        if k == "str":
            self.i += 1
            return ("lit", v)
        if k == "param":
            self.i += 1
            name = v[1:]
            if name not in self.params:
                raise bad(f"missing parameter ${name}", "query_parameter")
            return ("lit", self.params[name])
        if k == "op" and v == "(":
            self.i += 1
            e = self.expr()
            self.expect_op(")")
            return e
        if k == "op" and v == "[":
            self.i += 1
            items = []
            if not self.is_op("]"):
                while True:
                    items.append(self.expr())
                    if not self.is_op(","):
                        break
                    self.i += 1
            self.expect_op("]")
            return ("list", items)
        if k == "op" and v == "-":
            self.i += 1
            return ("arith", "-", ("lit", 0), self.atom())
        if k == "ident":
            up = v.upper()
            if up == "TRUE":
                self.i += 1
                return ("lit", True)
            if up == "FALSE":
                self.i += 1
                return ("lit", False)
            if up == "NULL":
                self.i += 1
                return ("lit", None)
            if self.peek(1) == ("op", "("):
                fname = v.lower()
                self.i += 2
                if fname not in ("count", "tolower", "toupper", "size", "id", "labels", "type",
                                 "coalesce", "collect", "elementid", "tostring", "trim"):
                    raise bad(f"function {v}() is not supported", "unsupported_query")
                args = []
                distinct = False
                if self.kw("DISTINCT"):
                    self.i += 1
                    distinct = True
                if self.is_op("*"):
                    self.i += 1
                    args.append(("star",))
                elif not self.is_op(")"):
                    while True:
                        args.append(self.expr())
                        if not self.is_op(","):
                            break
                        self.i += 1
                self.expect_op(")")
                return ("fn", fname, args, distinct)
            self.i += 1
            node = ("var", v)
            while self.is_op("."):
                self.i += 1
                node = ("prop", node, self.ident())
            return node
        raise bad(f"unexpected {v!r} in query", "query_syntax")


def render_tokens(toks):
    out = []
    for k, v in toks:
        if k == "str":
            out.append("'" + v.replace("\\", "\\\\").replace("'", "\\'") + "'")
        else:
            out.append(str(v))
    s = ""
    for piece in out:
        if s and (s[-1].isalnum() or s[-1] in "_'\"") and (piece[0].isalnum() or piece[0] in "_'\"$"):
            s += " "
        s += piece
    return s


AGG_FUNCS = ("count", "collect")


def has_agg(e):
    if not isinstance(e, tuple):
        return False
    if e[0] == "fn" and e[1] in AGG_FUNCS:
        return True
    for x in e[1:]:
        if isinstance(x, tuple) and has_agg(x):
            return True
        if isinstance(x, list) and any(has_agg(y) for y in x):
            return True
    return False


class NodeVal:
    __slots__ = ("labels", "props")

    def __init__(self, labels, props):
        self.labels = labels
        self.props = props


class RelVal:
    __slots__ = ("type", "src", "dst", "props", "id")

    def __init__(self, rtype, src, dst, props, rid):
        self.type, self.src, self.dst, self.props, self.id = rtype, src, dst, props, rid


def to_out(v):
    if isinstance(v, NodeVal):
        return dict(v.props)
    if isinstance(v, RelVal):
        return {"id": v.id, "type": v.type, "source": v.src, "target": v.dst, "properties": v.props}
    if isinstance(v, list):
        return [to_out(x) for x in v]
    return v


def cmp_key(v):
    """Total order for ORDER BY: numbers < strings < booleans < null (null last)."""
    if v is None:
        return (4, 0)
    if isinstance(v, bool):
        return (3, int(v))
    if isinstance(v, (int, float)):
        return (1, v)
    if isinstance(v, str):
        return (2, v)
    return (3.5, json.dumps(to_out(v), sort_keys=True, default=str))


def evaluate(e, row):
    kind = e[0]
    if kind == "lit":
        return e[1]
    if kind == "var":
        if e[1] not in row:
            raise bad(f"variable '{e[1]}' is not defined", "query_syntax")
        return row[e[1]]
    if kind == "prop":
        base = evaluate(e[1], row)
        if base is None:
            return None
        if isinstance(base, (NodeVal,)):
            return base.props.get(e[2])
        if isinstance(base, RelVal):
            if e[2] == "id":
                return base.id
            return base.props.get(e[2])
        if isinstance(base, dict):
            return base.get(e[2])
        raise bad("property access on a non-node value", "query_type")
    if kind == "list":
        return [evaluate(x, row) for x in e[1]]
    if kind == "not":
        v = evaluate(e[1], row)
        return None if v is None else (not truthy(v))
    if kind in ("and", "or", "xor"):
        a = evaluate(e[1], row)
        b = evaluate(e[2], row)
        a = None if a is None else truthy(a)
        b = None if b is None else truthy(b)
        if kind == "and":
            if a is False or b is False:
                return False
            return None if a is None or b is None else True
        if kind == "or":
            if a is True or b is True:
                return True
            return None if a is None or b is None else False
        return None if a is None or b is None else (a != b)
    if kind == "isnull":
        v = evaluate(e[1], row)
        return (v is not None) if e[2] else (v is None)
    if kind == "arith":
        a = evaluate(e[2], row)
        b = evaluate(e[3], row)
        if a is None or b is None:
            return None
        if e[1] == "+" and isinstance(a, str) and isinstance(b, str):
            return a + b
        if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, (int, float)) \
                or not isinstance(b, (int, float)):
            raise bad("arithmetic on non-numbers", "query_type")
        return a + b if e[1] == "+" else a - b
    if kind == "cmp":
        op = e[1]
        a = evaluate(e[2], row)
        b = evaluate(e[3], row)
        if op == "in":
            if b is None:
                return None
            if not isinstance(b, list):
                raise bad("IN needs a list", "query_type")
            return any(values_equal(a, x) for x in b)
        if a is None or b is None:
            return None
        if op in ("contains", "starts", "ends"):
            if not isinstance(a, str) or not isinstance(b, str):
                return None
            return (b in a) if op == "contains" else a.startswith(b) if op == "starts" else a.endswith(b)
        if op == "=":
            return values_equal(a, b)
        if op == "<>":
            return not values_equal(a, b)
        num = lambda x: isinstance(x, (int, float)) and not isinstance(x, bool)  # noqa: E731
        if not ((num(a) and num(b)) or (isinstance(a, str) and isinstance(b, str))):
            return None
        return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]
    if kind == "fn":
        name, args = e[1], e[2]
        if name in AGG_FUNCS:
            raise bad(f"{name}() is only allowed in RETURN", "query_syntax")
        vals = [evaluate(a, row) for a in args]
        if name in ("tolower", "toupper", "trim", "tostring"):
            if len(vals) != 1:
                raise bad(f"{name}() takes one argument", "query_syntax")
            v = vals[0]
            if v is None:
                return None
            if name == "tostring":
                return v if isinstance(v, str) else json.dumps(to_out(v))
            if not isinstance(v, str):
                raise bad(f"{name}() needs a string", "query_type")
            return v.lower() if name == "tolower" else v.upper() if name == "toupper" else v.strip()
        if name == "size":
            v = vals[0] if vals else None
            return None if v is None else len(v) if isinstance(v, (str, list)) else None
        if name in ("id", "elementid"):
            v = vals[0] if vals else None
            return v.props.get("id") if isinstance(v, NodeVal) else v.id if isinstance(v, RelVal) else None
        if name == "labels":
            v = vals[0] if vals else None
            return sorted(v.labels) if isinstance(v, NodeVal) else None
        if name == "type":
            v = vals[0] if vals else None
            return v.type if isinstance(v, RelVal) else None
        if name == "coalesce":
            for v in vals:
                if v is not None:
                    return v
            return None
    if kind == "star":
        raise bad("* is only allowed in RETURN or count(*)", "query_syntax")
    raise bad("unsupported expression", "unsupported_query")


def values_equal(a, b):
    if isinstance(a, NodeVal) and isinstance(b, NodeVal):
        return a.props.get("id") == b.props.get("id")
    if isinstance(a, bool) != isinstance(b, bool):
        return False
    return a == b


def truthy(v):
    if isinstance(v, bool):
        return v
    raise bad("WHERE needs a boolean expression", "query_type")


def run_query(q, params, graph):
    toks = lex(q)
    for i, (k, v) in enumerate(toks):
        if k == "ident" and v.upper() in WRITE_KEYWORDS and (i == 0 or toks[i - 1] != ("op", ".")):
            raise ApiError(400, "write_not_allowed",
                           f"the query endpoint is read-only: '{v.upper()}' is rejected")
    for i, (k, v) in enumerate(toks):
        prev = toks[i - 1] if i else (None, None)
        if k == "ident" and v.upper() in UNSUPPORTED_KEYWORDS and prev != ("op", ".") \
                and not (v.upper() == "WITH" and prev[0] == "ident" and prev[1].upper() in ("STARTS", "ENDS")):
            raise bad(f"'{v.upper()}' is not supported by this read-only query subset",
                      "unsupported_query")
    parsed = QParser(toks, params).parse()
    rows = [{}]
    if parsed["patterns"]:
        nodes = graph.nodes()
        by_id = {p["id"]: NodeVal(labels, p) for labels, p in nodes}
        all_nodes = list(by_id.values())
        rels = None
        for pat in parsed["patterns"]:
            if pat["rels"] and rels is None:
                wanted = set()
                for p2 in parsed["patterns"]:
                    for r2 in p2["rels"]:
                        if not r2["types"]:
                            wanted = None
                            break
                        wanted.update(r2["types"])
                    if wanted is None:
                        break
                rels = [RelVal(*r) for r in graph.rels(by_id, wanted)]
            rows = match_pattern(pat, rows, all_nodes, rels or [], by_id)
            if len(rows) > QUERY_MAX_ROWS * 10:
                raise ApiError(400, "query_too_large", "the query matches too many rows")
    if parsed["where"] is not None:
        rows = [r for r in rows if evaluate(parsed["where"], r) is True]
    items = parsed["items"]
    if any(it["expr"] == ("star",) for it in items):
        if len(items) != 1:
            raise bad("RETURN * cannot be combined with other items", "unsupported_query")
        names = sorted({k for r in rows for k in r if not k.startswith("_")})
        items = [{"expr": ("var", n), "alias": n} for n in names]
    columns = [it["alias"] for it in items]
    if len(set(columns)) != len(columns):
        raise bad("duplicate column names in RETURN", "query_syntax")
    aggregate = any(has_agg(it["expr"]) for it in items)
    if aggregate:
        groups = {}
        order_keys = []
        for r in rows:
            key_vals = [None if has_agg(it["expr"]) else evaluate(it["expr"], r) for it in items]
            key = json.dumps([to_out(v) for v in key_vals], sort_keys=True, default=str)
            if key not in groups:
                groups[key] = (key_vals, [])
                order_keys.append(key)
            groups[key][1].append(r)
        if not rows and all(has_agg(it["expr"]) for it in items):
            groups[""] = ([None] * len(items), [])
            order_keys.append("")
        out_rows = []
        for key in order_keys:
            key_vals, grp = groups[key]
            vals = []
            for it, kv in zip(items, key_vals):
                vals.append(agg_eval(it["expr"], grp) if has_agg(it["expr"]) else kv)
            out_rows.append(dict(zip(columns, vals)))
    else:
        out_rows = []
        for r in rows:
            d = dict(r)
            for it in items:
                d[it["alias"]] = evaluate(it["expr"], r)
            out_rows.append(d)
    if parsed["distinct"]:
        seen = set()
        uniq = []
        for d in out_rows:
            k = json.dumps([to_out(d[c]) for c in columns], sort_keys=True, default=str)
            if k not in seen:
                seen.add(k)
                uniq.append(d)
        out_rows = uniq
    for e, desc in reversed(parsed["order"]):
        def keyf(d, e=e):
            if e[0] == "var" and e[1] in columns:
                return cmp_key(d[e[1]])
            try:
                return cmp_key(evaluate(e, d))
            except ApiError:
                raise bad("ORDER BY expression refers to something not returned", "query_syntax")
        out_rows.sort(key=keyf, reverse=desc)
    out_rows = out_rows[parsed["skip"]:]
    if parsed["limit"] is not None:
        out_rows = out_rows[:parsed["limit"]]
    truncated = len(out_rows) > QUERY_MAX_ROWS
    out_rows = out_rows[:QUERY_MAX_ROWS]
    result_rows = [[to_out(d[c]) for c in columns] for d in out_rows]
    return {"columns": columns, "rows": result_rows,
            "stats": {"rowCount": len(result_rows), "readOnly": True, "truncated": truncated}}


def agg_eval(e, grp):
    if e[0] == "fn" and e[1] in AGG_FUNCS:
        name, args, distinct = e[1], e[2], e[3]
        if name == "count":
            if args and args[0] == ("star",):
                return len(grp)
            vals = [evaluate(args[0], r) for r in grp]
            vals = [v for v in vals if v is not None]
            if distinct:
                vals = list({json.dumps(to_out(v), sort_keys=True, default=str): v for v in vals}.values())
            return len(vals)
        vals = [evaluate(args[0], r) for r in grp]
        vals = [v for v in vals if v is not None]
        if distinct:
            vals = list({json.dumps(to_out(v), sort_keys=True, default=str): v for v in vals}.values())
        return vals
    raise bad("aggregates must be top-level in RETURN items", "unsupported_query")


def node_matches(spec, nv, row):
    if spec["labels"] and not all(lbl in nv.labels or lbl.upper() == nv.props.get("type") and
                                  "Entity" in nv.labels for lbl in spec["labels"]):
        return False
    for k, ex in spec["props"].items():
        if not values_equal(nv.props.get(k), evaluate(ex, row)):
            return False
    if spec["var"] and spec["var"] in row:
        bound = row[spec["var"]]
        if not isinstance(bound, NodeVal) or bound.props.get("id") != nv.props.get("id"):
            return False
    return True


def match_pattern(pat, rows, all_nodes, rels, by_id):
    out = []
    nodes_spec = pat["nodes"]
    for base in rows:
        partial = []
        for nv in all_nodes:
            if node_matches(nodes_spec[0], nv, base):
                r = dict(base)
                if nodes_spec[0]["var"]:
                    r[nodes_spec[0]["var"]] = nv
                r["_cur"] = nv
                r["_used"] = ()
                partial.append(r)
        for hop, rspec in enumerate(pat["rels"]):
            nxt_spec = nodes_spec[hop + 1]
            nxt = []
            for r in partial:
                cur_id = r["_cur"].props.get("id")
                for rel in rels:
                    if rspec["types"] and rel.type not in rspec["types"]:
                        continue
                    if rel.id in r["_used"]:
                        continue
                    other = None
                    if rspec["dir"] in ("out", "any") and rel.src == cur_id:
                        other = rel.dst
                    if other is None and rspec["dir"] in ("in", "any") and rel.dst == cur_id:
                        other = rel.src
                    if other is None or other not in by_id:
                        continue
                    if any(not values_equal(rel.props.get(k), evaluate(ex, r))
                           for k, ex in rspec["props"].items()):
                        continue
                    if rspec["var"] and rspec["var"] in r and getattr(r[rspec["var"]], "id", None) != rel.id:
                        continue
                    nv = by_id[other]
                    if not node_matches(nxt_spec, nv, r):
                        continue
                    r2 = dict(r)
                    if rspec["var"]:
                        r2[rspec["var"]] = rel
                    if nxt_spec["var"]:
                        r2[nxt_spec["var"]] = nv
                    r2["_cur"] = nv
                    r2["_used"] = r["_used"] + (rel.id,)
                    nxt.append(r2)
                    if len(nxt) > QUERY_MAX_ROWS * 10:
                        raise ApiError(400, "query_too_large", "the query matches too many rows")
            partial = nxt
        for r in partial:
            r.pop("_cur", None)
            r.pop("_used", None)
            out.append(r)
    return out


# --------------------------------------------------------------------------
# HTTP layer
# --------------------------------------------------------------------------

class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # TCP_NODELAY: a keep-alive answer written in two sends (headers, body) would wait for the
    # client's delayed ACK (~40 ms) under Nagle's algorithm: every request, not a rule of anyone's.
    disable_nagle_algorithm = True
    server_version = "AgentMemoryHosted/1.0"
    timeout = 30
    app = None

    def log_message(self, fmt, *args):  # quiet; stderr only when asked
        if os.environ.get("HOSTED_LOG"):
            sys.stderr.write("%s - %s\n" % (self.address_string(), fmt % args))

    def __getattr__(self, name):
        if name.startswith("do_"):
            return self._handle
        raise AttributeError(name)

    def _read_body_factory(self):
        state = {"done": False, "data": b""}

        def read():
            if state["done"]:
                return state["data"]
            state["done"] = True
            te = (self.headers.get("Transfer-Encoding") or "").lower()
            if "chunked" in te:
                state["data"] = self._read_chunked()
                return state["data"]
            cl = self.headers.get("Content-Length")
            if cl is None or cl.strip() == "":
                return b""
            if not re.fullmatch(r"\d{1,12}", cl.strip()):
                self.close_connection = True
                raise ApiError(400, "invalid_request", "invalid Content-Length")
            n = int(cl)
            if n > MAX_BODY:
                self.close_connection = True
                if n <= DRAIN_MAX:
                    # read and discard so the client can finish sending and see the 413
                    left = n
                    while left > 0:
                        chunk = self.rfile.read(min(65536, left))
                        if not chunk:
                            break
                        left -= len(chunk)
                raise ApiError(413, "payload_too_large", f"request body exceeds {MAX_BODY} bytes")
            state["data"] = self.rfile.read(n)
            if len(state["data"]) < n:
                self.close_connection = True
                raise bad("request body shorter than Content-Length")
            return state["data"]
        return read, state

    def _read_chunked(self):
        data = b""
        while True:
            line = self.rfile.readline(100)
            try:
                size = int(line.split(b";")[0].strip() or b"x", 16)
            except ValueError:
                self.close_connection = True
                raise bad("malformed chunked body")
            if size == 0:
                while self.rfile.readline(1000) not in (b"\r\n", b"\n", b""):
                    pass
                return data
            if len(data) + size > MAX_BODY:
                self.close_connection = True
                raise ApiError(413, "payload_too_large", f"request body exceeds {MAX_BODY} bytes")
            data += self.rfile.read(size)
            self.rfile.readline(10)

    def _handle(self):
        method = self.command
        read_body, state = self._read_body_factory()
        status, payload, extra = 500, None, {}
        try:
            result = self.app.dispatch(method, self.path, self.headers, read_body)
            if len(result) == 3:
                status, payload, extra = result
            else:
                status, payload = result
        except ApiError as e:
            status = e.status
            payload = {"error": e.code, "message": e.message}
            extra = e.headers
        except Exception as e:  # noqa: BLE001
            import traceback
            traceback.print_exc(file=sys.stderr)
            status = 500
            payload = {"error": "internal_error", "message": f"{type(e).__name__}"}
        # drain an unread body so keep-alive stays in sync
        if not state["done"] and not self.close_connection:
            try:
                read_body()
            except ApiError:
                self.close_connection = True
        self._send(status, payload, extra, method)

    def _send(self, status, payload, extra, method):
        body = b""
        if payload is not None and status != 204:
            body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        if payload is not None and status != 204:
            if FAULT == "prm-content-type-text" and self.path.split("?")[0] == "/.well-known/oauth-protected-resource":
                self.send_header("Content-Type", "text/plain")     # FAULT2: static-file media type
            else:
                self.send_header("Content-Type", "application/json")
        if status in (200, 201) and (self.path.startswith("/v1/auth/") or
                                     self.path.startswith("/oauth/") or self.path.startswith("/idp/")):
            self.send_header("Cache-Control", "no-store")
        for k, v in (extra or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        if method != "HEAD" and body:
            self.wfile.write(body)


def main():
    ap = argparse.ArgumentParser(description="hosted Agent Memory REST server")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--host", default="127.0.0.1")
    args = ap.parse_args()
    app = App()
    Handler.app = app
    httpd = ThreadingHTTPServer((args.host, args.port), Handler)
    httpd.daemon_threads = True
    port = httpd.server_address[1]
    app.origin = f"http://127.0.0.1:{port}"
    st = app.store
    with st.lock:
        ws1 = st.new_workspace("bootstrap workspace")
        ws2 = st.new_workspace("second workspace")
        k1 = st.create_key(ws1, "bootstrap", ["read", "write"])
        k2 = st.create_key(ws2, "other workspace bootstrap", ["read", "write"])
        old = utcnow() - timedelta(days=91)
        k3 = st.create_key(ws1, "expired (issued 91 days ago)", ["read", "write"], created_at=old)
        st.user_ws["dev-user"] = ws1
    now = int(utcnow().timestamp())
    info = {
        "url": app.origin,
        "api_key": k1["plaintext"],
        "workspace": ws1,
        "other_api_key": k2["plaintext"],
        "idp_token": app.issue_idp_token("dev-user", ws1, ttl=IDP_TOKEN_DEFAULT_TTL),
        "expired_token": app.issue_access_token("dev-user", ws1, list(SCOPES), iat=now - 7200),
        "expired_idp_token": app.issue_idp_token("dev-user", ws1, ttl=3600, iat=now - 7200),
        "expired_api_key": k3["plaintext"],
    }
    sys.stdout.write(json.dumps(info) + "\n")
    sys.stdout.flush()
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
