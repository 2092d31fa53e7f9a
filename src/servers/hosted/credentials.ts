// Static API keys of the hosted reference service (hosted-rest-api.md, "Authentication" and the
// API key lifecycle): `nams_<random>` keys, issued per workspace with scopes, expiring 90 days
// after issue, revocable at once, revealable only within their workspace.
//
// How a key is kept:
// - For authentication, only its SHA-256 digest. A key holds 256 random bits, so nobody can
//   enumerate candidates to match a digest; a deliberately slow password hash (scrypt, argon2)
//   protects low-entropy secrets and would add nothing here but latency. The digest is also the
//   lookup index, so authenticating never touches the plaintext.
// - For reveal (the document's reveal_api_key returns the plaintext), an encrypted copy: a compact
//   JWE (dir, A256GCM, via jose) under a service secret that lives only in the process (random at
//   start unless given). A dump of the key table therefore holds neither usable keys nor anything
//   that decrypts without the secret, and only the reveal endpoint ever decrypts.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { CompactEncrypt, compactDecrypt } from 'jose';

/** The fixed service prefix (the established clients document `nams_*` keys). */
const API_KEY_PREFIX = 'nams';
export const API_KEY_LIFETIME_MS = 90 * 24 * 60 * 60 * 1000;
export const SCOPES = ['read', 'write'] as const;
export type Scope = (typeof SCOPES)[number];

/** Who a request acts for, whichever credential it carried. */
export interface Principal {
  kind: 'api-key' | 'access-token';
  workspaceId: string;
  scopes: ReadonlySet<Scope>;
  /** The key id, or the token's subject. */
  subject: string;
}

/** A refusal the HTTP layer answers as is: `{status, body: {error}}`. */
export interface Refusal {
  status: 400 | 401 | 403 | 404;
  error: string;
}

export function isRefusal(value: unknown): value is Refusal {
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent: every value given to it is a non-null object (a refusal, a principal, a key view, a token response) and only a refusal has an error member, so the surviving mutants, which all keep the error test, decide alike (a key view has status too: dropping the error test is killed, and hidden by this mark)
  return typeof value === 'object' && value !== null && 'status' in value && 'error' in value;
}

/** How a key is listed: everything but the plaintext. */
interface ApiKeyView {
  id: string;
  label: string;
  scopes: Scope[];
  workspaceId: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  status: 'active' | 'revoked' | 'expired';
}

interface KeyRecord {
  id: string;
  label: string;
  scopes: Scope[];
  workspaceId: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  /** SHA-256 of the plaintext, hex. */
  digest: string;
  /** The plaintext, encrypted under the service secret (for reveal only). */
  sealed: string;
}

const KEY_FORMAT = new RegExp(`^${API_KEY_PREFIX}_[A-Za-z0-9_-]{16,}$`);

export function digestOf(secret: string): string {
  // Stryker disable next-line StringLiteral: equivalent: Node reads an empty encoding name as utf8, its default
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function isScope(value: unknown): value is Scope {
  // Stryker disable next-line ConditionalExpression: silent (hosted): valid variant "create_api_key accepts and keeps scope values other than read and write": the document names read and write as the scopes seen, not as the only ones; the exchange and the token check see only read and write in the tokens of a run
  return value === 'read' || value === 'write';
}

export class ApiKeyRegistry {
  private readonly byId = new Map<string, KeyRecord>();
  private readonly byDigest = new Map<string, KeyRecord>();
  /** Workspaces that exist: that of the bootstrap key and those keys were created for. */
  readonly workspaces = new Set<string>();
  private readonly secret: Uint8Array;

  /** `secret`: 32 bytes that seal plaintexts for reveal (default: random, for this process only). */
  constructor(private readonly clock: () => Date, secret?: Uint8Array) {
    // Stryker disable next-line all: not a protocol rule: the reveal secret is the operator's configuration, checked at start; no request reaches it
    if (secret !== undefined && secret.length !== 32) throw new Error('the reveal secret must be 32 bytes');
    this.secret = secret ?? new Uint8Array(randomBytes(32));
  }

  /** A new plaintext key: the prefix, an underscore, 32 random bytes in base64url. */
  static generateKey(): string {
    return `${API_KEY_PREFIX}_${randomBytes(32).toString('base64url')}`;
  }

  /** Whether a chosen key (e.g. `--api-key`) has the service's form: `nams_` and 16+ characters. */
  static isWellFormed(key: string): boolean {
    return KEY_FORMAT.test(key);
  }

  /** Issues a key (the given plaintext, or a new one); its workspace comes into existence. */
  async issue(input: { label: string; scopes: Scope[]; workspaceId: string; key?: string }): Promise<{ view: ApiKeyView; key: string }> {
    const key = input.key ?? ApiKeyRegistry.generateKey();
    // Stryker disable next-line ConditionalExpression,StringLiteral: not a protocol rule: only a key the operator chooses (--api-key) can be ill-formed, and the CLI refuses one first (test/hosted/cli.test.ts); a generated key always has the form
    if (!ApiKeyRegistry.isWellFormed(key)) throw new Error(`an API key must be "${API_KEY_PREFIX}_" followed by at least 16 of A-Z a-z 0-9 _ -`);
    const sealed = await new CompactEncrypt(new TextEncoder().encode(key)).setProtectedHeader({ alg: 'dir', enc: 'A256GCM' }).encrypt(this.secret);
    const digest = digestOf(key);
    // Stryker disable next-line ConditionalExpression,StringLiteral: not a protocol rule: only a key the operator chooses can repeat one already issued; a generated key holds 256 random bits
    if (this.byDigest.has(digest)) throw new Error('that API key is already issued');
    const createdAt = this.clock();
    const record: KeyRecord = {
      id: randomUUID(),
      label: input.label,
      scopes: [...new Set(input.scopes)],
      workspaceId: input.workspaceId,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + API_KEY_LIFETIME_MS),
      revokedAt: null,
      digest,
      sealed,
    };
    this.byId.set(record.id, record);
    this.byDigest.set(digest, record);
    this.workspaces.add(record.workspaceId);
    return { view: this.view(record), key };
  }

  /** The principal of a presented key, or why it is refused (always 401). */
  authenticate(credential: string): Principal | Refusal | undefined {
    const record = this.byDigest.get(digestOf(credential));
    if (record === undefined) return undefined;
    // Stryker disable next-line StringLiteral: equivalent: the text of an error is the service's own (hosted-rest-api.md, "Errors": the body of an error is not shown)
    if (record.revokedAt !== null) return { status: 401, error: 'the API key has been revoked' };
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ObjectLiteral,StringLiteral: timing: a key expires 90 days after issue, which no run waits (HOSTED-KEYSTATE-2 is unchecked for that reason); the text of the refusal is the service's own
    if (this.clock().getTime() >= record.expiresAt.getTime()) return { status: 401, error: `the API key expired at ${record.expiresAt.toISOString()}` };
    // Stryker disable next-line StringLiteral: equivalent: Principal.kind is read nowhere
    return { kind: 'api-key', workspaceId: record.workspaceId, scopes: new Set(record.scopes), subject: record.id };
  }

  /** Keys of one workspace, in issue order, without plaintext (revoked and expired ones included). */
  list(workspaceId: string): ApiKeyView[] {
    return [...this.byId.values()].filter((r) => r.workspaceId === workspaceId).map((r) => this.view(r));
  }

  /** Revokes a key of the caller's workspace (again: no change); another workspace's is "not found". */
  revoke(id: string, caller: Principal): ApiKeyView | Refusal {
    const record = this.byId.get(id);
    // Stryker disable next-line ConditionalExpression,LogicalOperator,ObjectLiteral,StringLiteral: advisory ADV-revoke-other-workspace: without the workspace test a key of another workspace is revoked (the lifecycle row of DELETE has the condition "none"); without the id test, or with the refusal emptied, an id no key has is answered 5xx or 2xx (advisory ADV-unknown-key-4xx); the text of the refusal is the service's own
    if (record === undefined || record.workspaceId !== caller.workspaceId) return { status: 404, error: `no API key with id ${JSON.stringify(id)} in this workspace` };
    record.revokedAt ??= this.clock();
    return this.view(record);
  }

  /**
   * The plaintext of an active key of the caller's workspace. Another workspace's key is refused
   * (403); so is a key with a scope the caller lacks (a read key cannot reveal a write key).
   */
  async reveal(id: string, caller: Principal): Promise<(ApiKeyView & { key: string }) | Refusal> {
    const record = this.byId.get(id);
    // Stryker disable next-line ConditionalExpression,ObjectLiteral,StringLiteral: advisory ADV-unknown-key-4xx: without the test, or with the refusal emptied, revealing an id no key has is answered 5xx or 2xx with no plaintext; the text of the refusal is the service's own
    if (record === undefined) return { status: 404, error: `no API key with id ${JSON.stringify(id)}` };
    // Stryker disable next-line StringLiteral: equivalent: the text of an error is the service's own (hosted-rest-api.md, "Errors": the body of an error is not shown)
    if (record.workspaceId !== caller.workspaceId) return { status: 403, error: 'the API key belongs to another workspace; reveal works only within the caller\'s workspace' };
    // Stryker disable next-line ConditionalExpression,MethodExpression,ObjectLiteral,StringLiteral: advisory ADV-reveal-wider-scopes: a read-only key then reveals a read-write key (the document leaves the meaning of scopes unsaid); the text of the refusal is the service's own
    if (!record.scopes.every((s) => caller.scopes.has(s))) return { status: 403, error: 'the API key has scopes the caller does not have' };
    const view = this.view(record);
    // Stryker disable next-line ConditionalExpression,ObjectLiteral,StringLiteral: advisory ADV-reveal-revoked: a revoked key's plaintext is then revealed (an expired key's too, which no run sees: timing); the text of the refusal is the service's own
    if (view.status !== 'active') return { status: 404, error: `the API key is ${view.status}` };
    const { plaintext } = await compactDecrypt(record.sealed, this.secret);
    return { ...view, key: new TextDecoder().decode(plaintext) };
  }

  private view(r: KeyRecord): ApiKeyView {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: timing: a key is expired 90 days after issue, which no run waits
    const expired = this.clock().getTime() >= r.expiresAt.getTime();
    return {
      id: r.id,
      label: r.label,
      // Stryker disable next-line ArrayDeclaration: silent (hosted): valid variant "key answers show only id, label and key (no scopes, workspace, dates or status)": the document shows id and key of a created key and nothing else of a key answer
      scopes: [...r.scopes],
      workspaceId: r.workspaceId,
      createdAt: r.createdAt.toISOString(),
      expiresAt: r.expiresAt.toISOString(),
      // Stryker disable next-line LogicalOperator: silent (hosted): valid variant "key answers show only id, label and key (no scopes, workspace, dates or status)": the document shows id and key of a created key and nothing else of a key answer
      revokedAt: r.revokedAt?.toISOString() ?? null,
      // Stryker disable next-line ConditionalExpression,StringLiteral: silent (hosted): valid variant "key answers show only id, label and key (no scopes, workspace, dates or status)": the document shows id and key of a created key and nothing else of a key answer
      status: r.revokedAt !== null ? 'revoked' : expired ? 'expired' : 'active',
    };
  }
}
