// Forged tokens the kit makes itself (jose), the way an OAuth conformance suite does: none needs a
// secret of the service. Each copies the header and claims of a real token (an access token of the
// service, or a token of its identity provider) so that only what is forged differs: the algorithm
// (`none`, HS256 keyed with the service's public key), the signature (altered, or made by a key of
// the kit under the service's kid, or by a key the token carries itself). RFC 8725 §2 lists these
// attacks; §3.1 and RFC 7515 §5.2 are the rules they break.
import { SignJWT, decodeJwt, decodeProtectedHeader, exportJWK, exportSPKI, generateKeyPair, importJWK, type CryptoKey, type JWK, type JWTHeaderParameters } from 'jose';
import type { Credential } from '../../src/profiles/hosted/context.js';

type Claims = Record<string, unknown>;

/** A real token's protected header and claims. */
export interface Parts {
  header: JWTHeaderParameters;
  payload: Claims;
}

/** Its header and claims; undefined when the token is not a JWT. */
export function partsOf(token: string): Parts | undefined {
  try {
    return { header: decodeProtectedHeader(token) as JWTHeaderParameters, payload: decodeJwt(token) as Claims };
  } catch {
    return undefined;
  }
}

/** A forged token and what it is, in words. */
export interface Forgery {
  token: string;
  what: string;
}

const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Unsigned: the header's `alg` set to "none" (and to "None"; libraries have matched it exactly), with
 * an empty signature, and once more keeping the real signature (some check "none" only when it is empty).
 */
export function unsigned(token: string, { header, payload }: Parts): Forgery[] {
  const signature = token.split('.')[2] ?? '';
  return [
    { token: `${segment({ ...header, alg: 'none' })}.${segment(payload)}.`, what: 'an unsigned JWT (alg "none")' },
    { token: `${segment({ ...header, alg: 'None' })}.${segment(payload)}.`, what: 'an unsigned JWT (alg "None")' },
    { token: `${segment({ ...header, alg: 'none' })}.${segment(payload)}.${signature}`, what: 'a JWT whose header says alg "none", its signature kept' },
  ];
}

/** The real token with its signature altered (its first byte flipped). */
export function alteredSignature(token: string): Forgery {
  const [h, p, s] = token.split('.') as [string, string, string];
  const sig = Buffer.from(s, 'base64url');
  if (sig.length > 0) sig[0] = sig[0]! ^ 0xff;
  return { token: `${h}.${p}.${sig.toString('base64url')}`, what: 'a JWT whose signature was altered' };
}

/** Algorithms the kit can make a key pair of (a forged token uses the real one's when it can). */
const SIGNING = new Set(['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA']);

/**
 * The real claims signed by a key pair of the kit: once under the real header (its kid names the
 * service's or the provider's key), once with the kit's public key embedded as the header's `jwk`
 * (CVE-2018-0114: a verifier that takes the key from the token).
 */
export async function otherKey({ header, payload }: Parts): Promise<Forgery[]> {
  const alg = typeof header.alg === 'string' && SIGNING.has(header.alg) ? header.alg : 'ES256';
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const sign = (h: JWTHeaderParameters) => new SignJWT(payload).setProtectedHeader(h).sign(privateKey);
  const { kid: _kid, ...rest } = header;
  return [
    { token: await sign({ ...header, alg }), what: `a JWT signed by a key of the kit under the real kid ${JSON.stringify(header.kid ?? null)}` },
    { token: await sign({ ...rest, alg, jwk: await exportJWK(publicKey) }), what: 'a JWT signed by a key of the kit that it carries in its own jwk header' },
  ];
}

/**
 * Key confusion (RFC 8725 §2.1): the real claims with `alg: HS256`, keyed with the service's public
 * key as an HMAC secret: its PEM (as exported, and with the trailing newline a file has) and its JWK
 * as JSON text. A verifier that lets the token choose the algorithm accepts one of these.
 */
export async function publicKeyAsSecret({ header, payload }: Parts, key: JWK): Promise<Forgery[]> {
  const { kid } = key;
  const pem = await exportSPKI((await importJWK(key, typeof key.alg === 'string' ? key.alg : algOf(key))) as CryptoKey);
  const { d: _d, ...pub } = key;
  const secrets: [string, string][] = [
    [pem, 'its PEM'],
    [`${pem}\n`, 'its PEM with a trailing newline'],
    [JSON.stringify(pub), 'its JWK as JSON'],
  ];
  return Promise.all(
    secrets.map(async ([secret, as]) => ({
      token: await new SignJWT(payload).setProtectedHeader({ ...header, alg: 'HS256', ...(kid !== undefined ? { kid } : {}) }).sign(new TextEncoder().encode(secret)),
      what: `a JWT with alg HS256 keyed with the service's public key (${as}) as the secret`,
    })),
  );
}

/** The algorithm a public JWK without `alg` is imported for. */
function algOf(key: JWK): string {
  if (key.kty === 'RSA') return 'RS256';
  if (key.kty === 'OKP') return 'EdDSA';
  return key.crv === 'P-384' ? 'ES384' : key.crv === 'P-521' ? 'ES512' : 'ES256';
}

/**
 * A forged token as a Bearer credential. Every Authorization value sent is scrubbed from the
 * outputs, so the reproduction names an environment variable for the forgery instead of its value.
 */
export const forgedCredential = (f: Forgery): Credential => ({
  authorization: `Bearer ${f.token}`,
  label: f.what,
  repro: `"Bearer \${TCK_FORGED_JWT:?set TCK_FORGED_JWT to ${f.what.replace(/['"`$\\{}]/g, '')}}"`,
});

/** Seconds since the epoch. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** How long past its exp a token must be for the kit to call it expired (RFC 7519 §4.1.4 allows "a few minutes" of leeway). */
export const LEEWAY_SECONDS = 5 * 60;
