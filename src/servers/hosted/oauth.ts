// OAuth side of the hosted reference service: token exchange and refresh (hosted-rest-api.md,
// Authentication rules 5 and 6), access tokens as JWTs signed with a key published at
// /.well-known/jwks.json, the two discovery documents, and the local development identity
// provider whose tokens `tck token` mints. All JOSE work is done by `jose`.
//
// Choices where the document is silent:
// - expires_in is in seconds (RFC 6749 §5.1); an access token lives 15 minutes, a refresh token
//   30 days. Access tokens follow RFC 9068 (typ "at+jwt"; iss, sub, aud, iat, exp, jti,
//   client_id, scope) plus `workspace_id` and `sid` (the refresh-token family).
// - The issuer is the service origin, so /.well-known/oauth-authorization-server at the origin is
//   that issuer's RFC 8414 document; the protected resource is the origin too (RFC 9728 §3: the
//   metadata at /.well-known/oauth-protected-resource describes the resource whose identifier is
//   the URL with that suffix removed), and it is the access tokens' audience.
// - The exchange's token endpoint is POST /v1/auth/exchange (grant types: token exchange and
//   refresh_token); POST /v1/auth/refresh is the refresh operation of the document.
// - Refresh tokens are opaque, kept as SHA-256 digests, single use. Presenting a used one again
//   is treated as theft (RFC 9700 §4.14.2): its whole family is revoked, including the access
//   tokens issued from it.
import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  SignJWT, calculateJwkThumbprint, createLocalJWKSet, createRemoteJWKSet, decodeJwt, errors as joseErrors,
  exportJWK, generateKeyPair, importJWK, jwtVerify, type CryptoKey, type JSONWebKeySet, type JWK, type JWTVerifyGetKey,
} from 'jose';
import { SCOPES, digestOf, isScope, type Principal, type Refusal, type Scope } from './credentials.js';

const ALG = 'ES256';
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
export const TOKEN_EXCHANGE_GRANT = 'urn:ietf:params:oauth:grant-type:token-exchange';

/** An identity provider whose tokens the exchange accepts. */
export interface TrustedIssuer {
  /** Its `iss`. */
  issuer: string;
  /** Its signing keys: a JWK set, or the URL of one. */
  jwks: JSONWebKeySet | URL;
  /** The `aud` its tokens must carry (not checked when absent). */
  audience?: string;
}

/** The token response of exchange and refresh (snake_case, as the document shows it). */
export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  token_type: 'Bearer';
  scope: string;
}

// ---------------------------------------------------------------- the development identity provider

const DEV_ISSUER = 'urn:agent-memory-tck:dev-idp';
const DEV_AUDIENCE = 'agent-memory-tck';
/** The client_id of the access tokens (RFC 9068 requires one; the exchange has no client registration). */
const CLIENT_ID = 'agent-memory-tck';

/** Where the dev IdP keeps its key: TCK_DEV_IDP_KEY_FILE, else ~/.agent-memory-tck/dev-idp-key.json. */
// Stryker disable all: not a protocol rule: the development identity provider's key file (tck token, tck serve --hosted), the operator's tool standing for a vendor's identity provider; the hosted runs use a provider made in memory
export function defaultDevKeyFile(): string {
  const env = process.env.TCK_DEV_IDP_KEY_FILE;
  return env !== undefined && env !== '' ? env : join(homedir(), '.agent-memory-tck', 'dev-idp-key.json');
}
// Stryker restore all

interface MintOptions {
  /** `sub` (default "dev-user"). */
  subject?: string;
  /** `workspace_id`: the workspace the exchanged token acts in (default: the service's first). */
  workspaceId?: string;
  /** `scope`, space-separated (default "read write"). */
  scope?: string;
  /** Lifetime in seconds (default 3600). */
  ttlSeconds?: number;
  /** The issue time (default now). */
  now?: Date;
}

/**
 * A local identity provider for development: an ES256 key pair, kept in a file readable only by
 * its owner so that `tck token` (which mints) and `tck serve --hosted` (which trusts) agree across
 * processes of one user. Tests use an in-memory one (`generate`).
 */
export class DevIdentityProvider {
  readonly issuer = DEV_ISSUER;

  private constructor(
    private readonly privateKey: CryptoKey,
    readonly publicJwk: JWK,
  ) {}

  static async generate(): Promise<DevIdentityProvider> {
    const { privateKey } = await generateKeyPair(ALG, { extractable: true });
    return DevIdentityProvider.fromPrivateJwk(await exportJWK(privateKey));
  }

  private static async fromPrivateJwk(jwk: JWK): Promise<DevIdentityProvider> {
    const { d: _d, ...pub } = jwk;
    // Stryker disable next-line LogicalOperator: not a protocol rule: what the development identity provider names its key (its kid) (it stands for a vendor's identity provider, whose tokens the service only verifies)
    const kid = jwk.kid ?? (await calculateJwkThumbprint(pub));
    const privateKey = (await importJWK({ ...jwk, kid }, ALG)) as CryptoKey;
    // Stryker disable next-line ObjectLiteral,StringLiteral: not a protocol rule: what the development identity provider publishes of its key beyond the key itself (kid, alg, use) (it stands for a vendor's identity provider, whose tokens the service only verifies)
    return new DevIdentityProvider(privateKey, { ...pub, kid, alg: ALG, use: 'sig' });
  }

  /** Loads the key from `file`, creating it (mode 0600, directory 0700) when it does not exist. */
  // Stryker disable all: not a protocol rule: the development identity provider's key file (tck token, tck serve --hosted), the operator's tool standing for a vendor's identity provider; the hosted runs use a provider made in memory
  static async fromFile(file: string = defaultDevKeyFile()): Promise<DevIdentityProvider> {
    try {
      return await DevIdentityProvider.fromPrivateJwk((JSON.parse(await readFile(file, 'utf8')) as { jwk: JWK }).jwk);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`cannot read the development IdP key ${file}: ${(err as Error).message}`);
    }
    const { privateKey } = await generateKeyPair(ALG, { extractable: true });
    const jwk = await exportJWK(privateKey);
    await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    try {
      await writeFile(file, `${JSON.stringify({ issuer: DEV_ISSUER, jwk }, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      await chmod(file, 0o600);
    } catch (err) {
      // Another process created it first: use theirs.
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return DevIdentityProvider.fromFile(file);
      throw err;
    }
    return DevIdentityProvider.fromPrivateJwk(jwk);
  }
  // Stryker restore all

  /** How a service trusts this provider. */
  trustedIssuer(): TrustedIssuer {
    return { issuer: this.issuer, jwks: { keys: [this.publicJwk] }, audience: DEV_AUDIENCE };
  }

  /** An identity-provider token for POST /v1/auth/exchange. */
  async mint(options: MintOptions = {}): Promise<string> {
    const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
    // Stryker disable next-line ObjectLiteral,LogicalOperator: not a protocol rule: what the development identity provider puts in its tokens beyond what the exchange requires (it stands for a vendor's identity provider, whose tokens the service only verifies)
    const claims: Record<string, unknown> = { scope: options.scope ?? SCOPES.join(' ') };
    // Stryker disable next-line ConditionalExpression,EqualityOperator: not a protocol rule: what the development identity provider puts in its tokens beyond what the exchange requires (it stands for a vendor's identity provider, whose tokens the service only verifies); every token the runs mint names the service's workspace, which is also its default
    if (options.workspaceId !== undefined) claims.workspace_id = options.workspaceId;
    // (A region, closed before the return: no next-line mark reaches a link of a chain.)
    // Stryker disable StringLiteral: not a protocol rule: what the development identity provider puts in its tokens beyond what the exchange requires (it stands for a vendor's identity provider, whose tokens the service only verifies)
    const token = new SignJWT(claims)
      .setProtectedHeader({ alg: ALG, kid: this.publicJwk.kid!, typ: 'JWT' })
      .setIssuer(this.issuer)
      .setSubject(options.subject ?? 'dev-user')
      .setAudience(DEV_AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + (options.ttlSeconds ?? 3600))
      .setJti(randomUUID())
      .sign(this.privateKey);
    // Stryker restore StringLiteral
    return token;
  }
}

// ---------------------------------------------------------------- the service's token issuer

interface TokenServiceOptions {
  clock: () => Date;
  /** Identity providers whose tokens the exchange accepts. */
  trusted: readonly TrustedIssuer[];
  /** The workspace of an exchanged token that names none. */
  defaultWorkspaceId: string;
  /** Told about the workspace of every exchanged token (so it exists for the key endpoints). */
  onWorkspace?: (workspaceId: string) => void;
  accessTokenTtlSeconds?: number;
  refreshTokenTtlSeconds?: number;
}

interface RefreshRecord {
  family: string;
  subject: string;
  workspaceId: string;
  scopes: Scope[];
  expiresAt: number;
  used: boolean;
}

const refused = (error: string): Refusal => ({ status: 401, error });

// Stryker disable next-line all: equivalent: only the text of the refusal depends on it (hosted-rest-api.md, "Errors": the body of an error is not shown)
function joseReason(err: unknown): string {
  // Stryker disable next-line all: equivalent: only the text of the refusal depends on it (hosted-rest-api.md, "Errors": the body of an error is not shown)
  if (err instanceof joseErrors.JWTExpired) return 'it has expired';
  // Stryker disable next-line all: equivalent: only the text of the refusal depends on it (hosted-rest-api.md, "Errors": the body of an error is not shown)
  if (err instanceof joseErrors.JOSEError) return err.message;
  // Stryker disable next-line all: equivalent: only the text of the refusal depends on it (hosted-rest-api.md, "Errors": the body of an error is not shown)
  return err instanceof Error ? err.message : String(err);
}

export class TokenService {
  // Stryker disable next-line StringLiteral: equivalent: setOrigin sets the origin once the service listens, before any request
  private origin = '';
  private readonly refreshTokens = new Map<string, RefreshRecord>();
  private readonly revokedFamilies = new Set<string>();
  private readonly idpKeys: { issuer: TrustedIssuer; keys: JWTVerifyGetKey }[];
  readonly accessTtl: number;
  readonly refreshTtl: number;

  private constructor(
    private readonly options: TokenServiceOptions,
    private readonly privateKey: CryptoKey,
    private readonly publicKey: CryptoKey,
    readonly publicJwk: JWK,
  ) {
    this.idpKeys = options.trusted.map((t) => ({ issuer: t, keys: t.jwks instanceof URL ? createRemoteJWKSet(t.jwks) : createLocalJWKSet(t.jwks) }));
    this.accessTtl = options.accessTokenTtlSeconds ?? ACCESS_TOKEN_TTL_SECONDS;
    // Stryker disable next-line LogicalOperator: timing: without a lifetime a refresh token never expires, and one lives 30 days, which no run waits
    this.refreshTtl = options.refreshTokenTtlSeconds ?? REFRESH_TOKEN_TTL_SECONDS;
  }

  static async create(options: TokenServiceOptions): Promise<TokenService> {
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: equivalent: a public key is extractable whatever the option says, and only the public key is exported
    const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
    const jwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(jwk);
    return new TokenService(options, privateKey, publicKey, { ...jwk, kid, alg: ALG, use: 'sig' });
  }

  /** The service origin: the issuer of access tokens and their audience. Set once listening. */
  setOrigin(origin: string): void {
    this.origin = origin;
  }

  get issuer(): string {
    return this.origin;
  }

  /** The published key set: the one signing key. */
  jwks(): JSONWebKeySet {
    return { keys: [{ ...this.publicJwk }] };
  }

  /** Exchanges a trusted identity provider's token for an access and a refresh token. */
  async exchange(idpToken: string): Promise<TokenResponse | Refusal> {
    let iss: unknown;
    // A mark above a catch clause does not reach its block (next-line marks attach to statements), hence the range.
    // Stryker disable BlockStatement: equivalent: with the catch emptied, iss stays undefined, no trusted issuer matches, and the token is refused (401) two lines down; only the text differs
    try {
      iss = decodeJwt(idpToken).iss;
    } catch {
      // Stryker disable next-line StringLiteral: equivalent: the text of an error is the service's own (hosted-rest-api.md, "Errors": the body of an error is not shown)
      return refused('the identity-provider token is not a JWT');
    }
    // Stryker restore BlockStatement
    // Stryker disable next-line ConditionalExpression: equivalent in practice: the service trusts one identity provider in every run of the kit, and jwtVerify checks the issuer anyway, so a token of another issuer is still refused
    const trusted = this.idpKeys.find((t) => t.issuer.issuer === iss);
    // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: equivalent: without the test, jwtVerify is handed undefined keys inside the try and the token is refused (401) all the same; only the text differs
    if (trusted === undefined) return refused(`the identity-provider token's issuer ${JSON.stringify(iss ?? null)} is not trusted`);
    let payload;
    // Stryker disable BlockStatement: advisory ADV-refusal-4xx: with the catch emptied, a subject token that fails verification is answered 5xx rather than 401 (SCN-H-056 notes it), never with a token
    try {
      // Stryker disable next-line ObjectLiteral: equivalent in practice: not observable without a secret of the identity provider: only a token the trusted provider signed gets here, a client can forge none (SCN-H-056), and the tokens a run is given are the provider's own
      ({ payload } = await jwtVerify(idpToken, trusted.keys, {
        issuer: trusted.issuer.issuer,
        // Stryker disable next-line ConditionalExpression,EqualityOperator,ObjectLiteral: equivalent in practice: not observable without a secret of the identity provider: only a token the trusted provider signed gets here, a client can forge none (SCN-H-056), and the tokens a run is given are the provider's own
        ...(trusted.issuer.audience !== undefined ? { audience: trusted.issuer.audience } : {}),
        currentDate: this.options.clock(),
        // Stryker disable next-line ArrayDeclaration,StringLiteral: equivalent in practice: not observable without a secret of the identity provider: only a token the trusted provider signed gets here, a client can forge none (SCN-H-056), and the tokens a run is given are the provider's own
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (err) {
      // Stryker disable next-line StringLiteral: equivalent: the text of an error is the service's own (hosted-rest-api.md, "Errors": the body of an error is not shown)
      return refused(`the identity-provider token is not valid: ${joseReason(err)}`);
    }
    // Stryker restore BlockStatement
    // Stryker disable next-line all: equivalent in practice: not observable without a secret of the identity provider: only a token the trusted provider signed gets here, a client can forge none (SCN-H-056), and the tokens a run is given are the provider's own (and they carry the scope "read write")
    const requested = typeof payload.scope === 'string' ? payload.scope.split(/\s+/).filter(isScope) : [...SCOPES];
    // Stryker disable next-line all: equivalent in practice: not observable without a secret of the identity provider: only a token the trusted provider signed gets here, a client can forge none (SCN-H-056), and the tokens a run is given are the provider's own (and they grant read and write)
    if (requested.length === 0) return refused(`the identity-provider token grants none of the scopes ${SCOPES.join(', ')}`);
    // Stryker disable next-line all: equivalent in practice: not observable without a secret of the identity provider: only a token the trusted provider signed gets here, a client can forge none (SCN-H-056), and the tokens a run is given are the provider's own (and they name the service's workspace)
    const workspaceId = typeof payload.workspace_id === 'string' && payload.workspace_id !== '' ? payload.workspace_id : this.options.defaultWorkspaceId;
    // Stryker disable next-line OptionalChaining: equivalent: the service always gives onWorkspace
    this.options.onWorkspace?.(workspaceId);
    return this.issue({ family: randomUUID(), subject: payload.sub!, workspaceId, scopes: [...new Set(requested)] });
  }

  /**
   * Rotation: the refresh token is spent and a new pair is issued. The check and the spending
   * happen before the first await, so two concurrent uses cannot both succeed.
   */
  async refresh(refreshToken: string): Promise<TokenResponse | Refusal> {
    const record = this.refreshTokens.get(digestOf(refreshToken));
    // Stryker disable next-line ConditionalExpression,StringLiteral: advisory ADV-refusal-4xx: without the test a refresh token the service never issued is answered 5xx rather than 401 (SCN-H-058 notes it), never with a token; the text of the refusal is the service's own
    if (record === undefined) return refused('unknown refresh token');
    // Stryker disable next-line ConditionalExpression,StringLiteral: advisory ADV-reuse-revokes-family: without the test the refresh token issued by a rotation still refreshes after the spent one was presented again; the text of the refusal is the service's own
    if (this.revokedFamilies.has(record.family)) return refused('the refresh token has been revoked');
    if (record.used) {
      this.revokedFamilies.add(record.family);
      // Stryker disable next-line StringLiteral: equivalent: the text of an error is the service's own (hosted-rest-api.md, "Errors": the body of an error is not shown)
      return refused('the refresh token was already used; its token family is now revoked');
    }
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: timing: a refresh token lives 30 days, which no run waits; the text of the refusal is the service's own
    if (this.options.clock().getTime() >= record.expiresAt) return refused('the refresh token has expired');
    record.used = true;
    return this.issue(record);
  }

  /** The principal of an access token, or why it is refused; undefined when it is not a JWT. */
  async verify(token: string): Promise<Principal | Refusal | undefined> {
    // Stryker disable next-line ConditionalExpression,Regex: equivalent: a credential that is no JWT (API keys are looked up first) handed to jwtVerify is refused 401 all the same; only the text differs
    if (!/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)) return undefined;
    let payload;
    try {
      // Stryker disable next-line ObjectLiteral: equivalent in practice: not observable without a secret of the service: only a token the service's own key signed passes the signature check, the service signs only tokens with these claims, issuer, audience, type and algorithm, and every forgery a client can make fails the signature (SCN-H-050, SCN-H-051, SCN-H-052, SCN-H-055)
      ({ payload } = await jwtVerify(token, this.publicKey, {
        issuer: this.origin,
        audience: this.origin,
        algorithms: [ALG],
        typ: 'at+jwt',
        currentDate: this.options.clock(),
        // Stryker disable next-line ArrayDeclaration,StringLiteral: equivalent in practice: not observable without a secret of the service: only a token the service's own key signed passes the signature check, the service signs only tokens with these claims, issuer, audience, type and algorithm, and every forgery a client can make fails the signature (SCN-H-050, SCN-H-051, SCN-H-052, SCN-H-055)
        requiredClaims: ['sub', 'exp', 'iat', 'scope'],
      }));
    } catch (err) {
      // Stryker disable next-line StringLiteral: equivalent: the text of an error is the service's own (hosted-rest-api.md, "Errors": the body of an error is not shown)
      return refused(`the access token is not valid: ${joseReason(err)}`);
    }
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: advisory ADV-reuse-revokes-family: without the test the access token issued by a rotation still works after the spent refresh token was presented again (the true mutant is equivalent: every token the service signs carries sid); the text of the refusal is the service's own
    if (typeof payload.sid === 'string' && this.revokedFamilies.has(payload.sid)) return refused('the access token has been revoked');
    // Stryker disable next-line MethodExpression,Regex: equivalent: only tokens the service signed get here, and it writes their scope as read and write joined by one space
    const scopes = String(payload.scope).split(/\s+/).filter(isScope);
    // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: equivalent: every token the service signs carries workspace_id as a string
    const workspaceId = typeof payload.workspace_id === 'string' ? payload.workspace_id : this.options.defaultWorkspaceId;
    // Stryker disable next-line StringLiteral: equivalent: Principal.kind is read nowhere
    return { kind: 'access-token', workspaceId, scopes: new Set(scopes), subject: payload.sub! };
  }

  private async issue(from: { family: string; subject: string; workspaceId: string; scopes: Scope[] }): Promise<TokenResponse> {
    const nowMs = this.options.clock().getTime();
    // Stryker disable next-line ArithmeticOperator: advisory ADV-expires-in-matches-exp: the token's iat and exp are then thousands of years ahead, and its exp is no longer expires_in seconds after the response (SCN-H-027 notes it)
    const now = Math.floor(nowMs / 1000);
    const refreshToken = randomBytes(32).toString('base64url');
    this.refreshTokens.set(digestOf(refreshToken), {
      family: from.family,
      subject: from.subject,
      workspaceId: from.workspaceId,
      scopes: from.scopes,
      // Stryker disable next-line ArithmeticOperator: timing: the refresh token would expire after 43 minutes instead of 30 days, which no run waits
      expiresAt: nowMs + this.refreshTtl * 1000,
      used: false,
    });
    const accessToken = await this.accessToken(from, now);
    // Stryker disable next-line StringLiteral: advisory ADV-token-scope-advertised: the scope is then "readwrite", well-formed (RFC 6749 §3.3) but no scope the metadata advertises (SCN-H-034 notes it)
    const scope = from.scopes.join(' ');
    return { access_token: accessToken, refresh_token: refreshToken, expires_in: this.accessTtl, token_type: 'Bearer', scope };
  }

  private accessToken(from: { family: string; subject: string; workspaceId: string; scopes: Scope[] }, now: number): Promise<string> {
    return new SignJWT({ scope: from.scopes.join(' '), workspace_id: from.workspaceId, sid: from.family, client_id: CLIENT_ID })
      .setProtectedHeader({ alg: ALG, kid: this.publicJwk.kid!, typ: 'at+jwt' })
      .setIssuer(this.origin)
      .setSubject(from.subject)
      .setAudience(this.origin)
      .setIssuedAt(now)
      .setExpirationTime(now + this.accessTtl)
      .setJti(randomUUID())
      .sign(this.privateKey);
  }

  /**
   * An access token (no refresh token) for `who`, issued at `issuedAt`. The embedded run of the
   * hosted profile asks for one issued a lifetime ago: an expired token of this service, which no
   * client can otherwise have without waiting its lifetime out.
   */
  accessTokenIssuedAt(who: { subject: string; workspaceId: string; scopes: Scope[] }, issuedAt: Date): Promise<string> {
    return this.accessToken({ ...who, family: randomUUID() }, Math.floor(issuedAt.getTime() / 1000));
  }
}

// ---------------------------------------------------------------- discovery documents

/** RFC 9728 protected-resource metadata. */
export function protectedResourceMetadata(origin: string, issuer: string): Record<string, unknown> {
  return {
    resource: origin,
    authorization_servers: [issuer],
    jwks_uri: `${origin}/.well-known/jwks.json`,
    // Stryker disable next-line ArrayDeclaration: silent (hosted): valid variant "the server metadata leaves grant_types_supported, token_endpoint_auth_methods_supported and scopes_supported out": an empty scopes_supported says no more than leaving the member out (RECOMMENDED, RFC 9728 §2)
    scopes_supported: [...SCOPES],
    bearer_methods_supported: ['header'],
    // Stryker disable next-line ArrayDeclaration: not a protocol rule: resource_signing_alg_values_supported is OPTIONAL (RFC 9728 §2), and the service signs no resource response
    resource_signing_alg_values_supported: [ALG],
    // Stryker disable next-line StringLiteral: not a protocol rule: resource_name is OPTIONAL and for people (RFC 9728 §2)
    resource_name: 'agent-memory-tck hosted reference service',
  };
}

/** RFC 8414 authorization-server metadata. */
export function authorizationServerMetadata(origin: string, issuer: string): Record<string, unknown> {
  return {
    issuer,
    token_endpoint: `${origin}/v1/auth/exchange`,
    jwks_uri: `${origin}/.well-known/jwks.json`,
    // RFC 8414 requires the member; the service has no authorization endpoint (the document does
    // not show the PKCE flow's endpoints), so it supports no response type.
    response_types_supported: [],
    // Stryker disable next-line ArrayDeclaration,StringLiteral: advisory ADV-grant-types-listed: a grant_types_supported without the exchange or refresh_token (SCN-H-041 notes it)
    grant_types_supported: [TOKEN_EXCHANGE_GRANT, 'refresh_token'],
    // Stryker disable next-line ArrayDeclaration,StringLiteral: not a protocol rule: token_endpoint_auth_methods_supported is OPTIONAL (RFC 8414 §2), and no client authenticates at the token endpoints (the subject or refresh token is the credential)
    token_endpoint_auth_methods_supported: ['none'],
    // Stryker disable next-line ArrayDeclaration: silent (hosted): valid variant "the server metadata leaves grant_types_supported, token_endpoint_auth_methods_supported and scopes_supported out": an empty scopes_supported says no more than leaving the member out (RECOMMENDED, RFC 8414 §2)
    scopes_supported: [...SCOPES],
    // Not RFC 8414 members: where the document's refresh and key endpoints are.
    // Stryker disable next-line StringLiteral: not a protocol rule: refresh_endpoint is the reference's own member, named by no RFC
    refresh_endpoint: `${origin}/v1/auth/refresh`,
  };
}
