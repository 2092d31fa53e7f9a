// Faulty and valid variants of the hosted reference service, for proving the hosted profile's
// power. A variant is the part-1 service with its route table edited (`routes`) and/or an
// intercept that sees every request and reply (`intercept`), so it differs from the reference in
// exactly one rule. runOnHostedVariant runs hosted scenarios against one, as a vendor's service.

import { isRefusal } from '../../src/servers/hosted/credentials.js';
import { Race, type OpenState } from '../harness/races.js';
import {
  DevIdentityProvider, ROUTES, SCOPES, startHostedServer, type HostedRequest, type Reply, type Route, type RouteContext, type RunningHostedServer,
} from '../../src/servers/hosted/index.js';
import type { HostedProfileOptions, HostedScenarioResult } from '../../src/profiles/hosted/run.js';
import { runHostedProfile } from '../../src/run/hosted.js';
import { expiredTokens } from './helpers.js';

type Next = (request: HostedRequest) => Promise<Reply>;
/** An intercept that may use the running service (its keys, tokens, bootstrap key). */
export type Intercept = (service: () => RunningHostedServer) => (request: HostedRequest, next: Next) => Promise<Reply>;

export interface HostedVariant {
  /** Edits the route table. */
  routes?: (routes: readonly Route[]) => Route[];
  intercept?: Intercept;
}

let idp: Promise<DevIdentityProvider> | undefined;
/** The identity provider every variant trusts (faulty token endpoints mint with it too). */
export const sharedIdp = () => (idp ??= DevIdentityProvider.generate());

export interface RunningVariant {
  server: RunningHostedServer;
  /** The profile's options for this service: URL, the bootstrap key, its workspace, minted IdP tokens. */
  options: HostedProfileOptions;
  close(): Promise<void>;
}

export async function startHostedVariant(variant: HostedVariant = {}): Promise<RunningVariant> {
  const provider = await sharedIdp();
  // The intercept reads the server only when a request arrives, after it has started.
  const intercept = variant.intercept?.(() => server);
  const server = await startHostedServer({
    port: 0,
    identityProviders: [provider.trustedIssuer()],
    ...(variant.routes ? { routes: variant.routes(ROUTES) } : {}),
    ...(intercept ? { intercept } : {}),
  });
  const s = server;
  // The service lets no caller found a workspace: the reveal rule's second workspace is given.
  const other = await s.keys.issue({ label: 'other', scopes: ['read', 'write'], workspaceId: `${s.workspaceId}-other` });
  const { expiredToken, expiredIdpToken } = await expiredTokens(s, provider);
  return {
    server: s,
    options: {
      url: s.baseUrl,
      apiKey: s.apiKey,
      otherApiKey: other.key,
      expiredToken,
      expiredIdpToken,
      workspaceId: s.workspaceId,
      idpToken: () => provider.mint({ workspaceId: s.workspaceId }),
      requestTimeoutMs: 5_000,
      scenarioTimeoutMs: 15_000,
    },
    close: () => s.close(),
  };
}

/** Runs the named hosted scenarios against a variant (undefined: the reference service). */
export async function runOnHostedVariant(variant: HostedVariant | undefined, ids: string[], extra: Partial<HostedProfileOptions> = {}): Promise<HostedScenarioResult[]> {
  const v = await startHostedVariant(variant);
  try {
    const { section } = await runHostedProfile({ ...v.options, scenarios: ids, ...extra });
    return section.scenarios;
  } finally {
    await v.close();
  }
}

// ------------------------------------------------------------------ building variants

/** The route table without an operation. */
export const withoutRoute = (operation: string): HostedVariant => ({ routes: (rs) => rs.filter((r) => r.operation !== operation) });

/** One operation's handler replaced; the replacement gets the original handler. */
export function replaceHandler(operation: string, handler: (ctx: RouteContext, original: Route['handler']) => Reply | Promise<Reply>): HostedVariant {
  return { routes: (rs) => rs.map((r) => (r.operation === operation ? { ...r, handler: (ctx) => handler(ctx, r.handler) } : r)) };
}

/** The answers of one operation edited (its 2xx JSON body); `edit` gets a copy. */
export const mapAnswer = (operation: string, edit: (body: any, ctx: RouteContext) => unknown): HostedVariant =>
  replaceHandler(operation, async (ctx, original) => {
    const reply = await original(ctx);
    if (reply.status >= 300 || reply.body === undefined) return reply;
    return { ...reply, body: edit(structuredClone(reply.body), ctx) };
  });

/** Every reply edited (discovery documents, refusals and all). */
export const mapReplies = (edit: (reply: Reply, request: HostedRequest, service: RunningHostedServer) => Reply): HostedVariant => ({
  intercept: (service) => async (request, next) => edit(await next(request), request, service()),
});

const JWT = /^Bearer [\w-]+\.[\w-]+\.[\w-]+$/;
const bearerIsJwt = (request: HostedRequest) => JWT.test(request.authorization ?? '');
export const pathOf = (request: Pick<HostedRequest, 'url'>) => request.url.split('?')[0]!;
export const at = (path: string) => (r: { url: string }) => pathOf(r) === path;
export const json = (status: number, body: unknown): Reply => ({ status, body });
const ALL_SCOPES = new Set(SCOPES);

/** Every field name turned to snake_case (userId -> user_id), the caller's data too. */
export function snakeCase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCase);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeCase(v)]));
}

/** An extra camelCase field in every object of an answer. */
export function withExtraFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withExtraFields);
  if (value === null || typeof value !== 'object') return value;
  return { ...Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withExtraFields(v)])), vendorNote: 'an extra field' };
}

/** A JWKS document edited. */
export const jwksEdited = (edit: (keys: any[]) => any[]): HostedVariant =>
  mapReplies((reply, request) => (at('/.well-known/jwks.json')(request) ? { ...reply, body: { keys: edit(structuredClone((reply.body as any).keys)) } } : reply));

/** A discovery document edited. */
export const discoveryEdited = (path: string, edit: (doc: any) => any): HostedVariant =>
  mapReplies((reply, request) => (at(path)(request) ? { ...reply, body: edit(structuredClone(reply.body)) } : reply));

/** The JWKS lacks the signing key: it publishes the public key of a pair nobody else uses. */
export async function jwksWithoutTheSigningKey(): Promise<HostedVariant> {
  const { exportJWK, generateKeyPair } = await import('jose');
  const stranger = await generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await exportJWK(stranger.publicKey)), kid: 'someone-else', alg: 'ES256', use: 'sig' };
  return jwksEdited(() => [jwk]);
}

/** Several variants at once: route edits applied in order, intercepts nested (the first outermost). */
export function combine(...variants: HostedVariant[]): HostedVariant {
  return {
    routes: (rs) => variants.reduce<Route[]>((acc, v) => (v.routes ? v.routes(acc) : acc), [...rs]),
    intercept: (service) => {
      const chain = variants.flatMap((v) => (v.intercept ? [v.intercept(service)] : []));
      return (request, next) => chain.reduceRight<Next>((inner, outer) => (r) => outer(r, inner), next)(request);
    },
  };
}

// ------------------------------------------------------------------ faults of the credential rules (shared by the power and secrets tests)

/** Revocation takes effect half a second later. */
export const revocationDelayed = replaceHandler('revoke_api_key', (ctx) => {
  const { id } = ctx.params;
  const caller = ctx.principal!;
  setTimeout(() => ctx.keys.revoke(id!, caller), 500).unref();
  return { status: 204 };
});

/** Reveal ignores the workspace: any key's plaintext for any caller. */
export const revealAcrossWorkspaces = replaceHandler('reveal_api_key', async (ctx) => {
  const workspaceId = [...ctx.keys.workspaces].find((ws) => ctx.keys.list(ws).some((k) => k.id === ctx.params.id)) ?? ctx.principal!.workspaceId;
  const r = await ctx.keys.reveal(ctx.params.id!, { ...ctx.principal!, workspaceId, scopes: ALL_SCOPES });
  return isRefusal(r) ? json(r.status, { error: r.error }) : json(200, r);
});

/** The list shows each active key's plaintext. */
export const plaintextInList = replaceHandler('list_api_keys', async (ctx, original) => {
  const reply = await original(ctx);
  const body = reply.body as any;
  for (const k of body.keys) {
    const r = await ctx.keys.reveal(k.id, { ...ctx.principal!, scopes: ALL_SCOPES });
    if (!isRefusal(r)) k.key = r.key;
  }
  return reply;
});

/** A spent refresh token keeps working: it is quietly swapped for the newest one of its chain. */
export function refreshReusable(): HostedVariant {
  const newest = new Map<string, string>();
  return replaceHandler('refresh_access_token', async (ctx, original) => {
    const given = String(ctx.body.refreshToken ?? ctx.body.refresh_token);
    const use = newest.get(given) ?? given;
    const reply = await original({ ...ctx, body: { refreshToken: use } });
    const next = (reply.body as any)?.refresh_token;
    if (reply.status === 200 && typeof next === 'string') {
      for (const [k, v] of newest) if (v === use) newest.set(k, next);
      newest.set(given, next);
      newest.set(use, next);
    }
    return reply;
  });
}

/** GET /v1/entities/graph serves a request without a credential (as the bootstrap key). */
export const endpointWithoutAuth: HostedVariant = {
  intercept: (service) => (request, next) =>
    next(request.authorization === undefined && at('/v1/entities/graph')(request) ? { ...request, authorization: `Bearer ${service().apiKey}` } : request),
};

/** Any unknown key of the service's form is taken for the bootstrap key. */
export const anyKeyOfTheRightForm: HostedVariant = {
  intercept: (service) => (request, next) => {
    const token = /^Bearer (nams_\S+)$/.exec(request.authorization ?? '')?.[1];
    const unknown = token !== undefined && service().keys.authenticate(token) === undefined;
    return next(unknown ? { ...request, authorization: `Bearer ${service().apiKey}` } : request);
  },
};

/** Access tokens are refused by the graph endpoint (API keys are not). */
export const tokensRefusedByGraph: HostedVariant = {
  intercept: () => (request, next) => (bearerIsJwt(request) && at('/v1/entities/graph')(request) ? Promise.resolve(json(401, { error: 'tokens not accepted here' })) : next(request)),
};

/** Only the access token issued last is accepted. */
export function onlyLatestToken(): HostedVariant {
  let latest: string | undefined;
  return {
    intercept: () => async (request, next) => {
      if (bearerIsJwt(request) && latest !== undefined && request.authorization !== `Bearer ${latest}`) return json(401, { error: 'superseded token' });
      const reply = await next(request);
      const issued = (reply.body as any)?.access_token;
      if (typeof issued === 'string') latest = issued;
      return reply;
    },
  };
}

/** An intercept under which every request at the service is one of `race`'s runners (races.ts). */
const meetingAt = (race: Race): ((request: HostedRequest, next: Next) => Promise<Reply>) => async (request, next) => {
  race.enter();
  try {
    return await next(request);
  } finally {
    race.leave();
  }
};

/**
 * The refresh checks its token, awaits, and only then marks it spent: every presentation of one
 * refresh token that arrives while the first is between its check and its spend is served too, each
 * with a fresh pair (the requests at the service meet first: races.ts). A presentation after the
 * first was answered is refused, as the service refuses it: only concurrent refreshes tell.
 */
export function refreshCheckedThenSpent(): HostedVariant {
  const race = new Race();
  const open = new Map<string, { tail: Promise<Reply> }>();
  const rotated = (reply: Reply): string | undefined => {
    const next = (reply.body as { refresh_token?: unknown } | undefined)?.refresh_token;
    return reply.status === 200 && typeof next === 'string' ? next : undefined;
  };
  return {
    intercept: () => meetingAt(race),
    ...replaceHandler('refresh_access_token', async (ctx, original) => {
      const given = String(ctx.body.refreshToken ?? ctx.body.refresh_token);
      await race.meet();
      const window = open.get(given);
      if (window !== undefined) {
        // Checked while the token was not yet spent: served from the pair the one before it got.
        const mine = window.tail.then((before) => {
          const token = rotated(before);
          return token === undefined ? before : original({ ...ctx, body: { refreshToken: token } });
        });
        window.tail = mine;
        return mine;
      }
      const first = { tail: Promise.resolve(original(ctx)) };
      open.set(given, first);
      try {
        return await first.tail;
      } finally {
        // The window closes once every presentation that arrived in it has its answer.
        void first.tail.then(() => setImmediate(() => open.delete(given)));
      }
    }),
  };
}

/**
 * bulk_add_messages reads the conversation's messages, awaits, and writes back what it read plus
 * its own: the messages added meanwhile (by add_message or another bulk add) are lost. Sequentially
 * nothing is lost (the requests at the service meet first: races.ts).
 */
export function bulkFromStaleConversation(): HostedVariant {
  const race = new Race();
  return {
    intercept: () => meetingAt(race),
    ...replaceHandler('bulk_add_messages', async (ctx, original) => {
      const state = (ctx.store as unknown as OpenState).sessions;
      const id = ctx.params['id']!;
      const before = [...(state.get(id)?.messages ?? [])];
      await race.meet();
      const reply = await original(ctx);
      const session = state.get(id);
      if (reply.status >= 300 || session === undefined) return reply;
      const mine = session.messages.slice(session.messages.length - (Array.isArray(ctx.body.messages) ? ctx.body.messages.length : 0));
      session.messages = [...before, ...mine];
      return reply;
    }),
  };
}
