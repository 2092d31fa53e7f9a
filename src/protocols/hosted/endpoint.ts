// Where a hosted service lives: the REST base URL (…/v1) from a setting that may name its origin alone.

/**
 * Checks and normalises MEMORY_ENDPOINT (or another setting, named by `names` in the errors): an
 * http(s) URL without query, fragment or credentials; an origin alone gets /v1.
 */
export function normalizeEndpoint(endpoint: string, names = { url: 'MEMORY_ENDPOINT', key: 'MEMORY_API_KEY' }): string {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new Error(`${names.url} is not a URL: ${JSON.stringify(endpoint)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${names.url} must be http or https, got ${url.protocol}`);
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new Error(`${names.url} must not carry credentials, a query or a fragment (put the key in ${names.key})`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  return `${url.origin}${path === '' ? '/v1' : path}`;
}
