// The WWW-Authenticate grammar SCN-H-032 judges every challenge by (RFC 9110 §11.6.1, §11.3):
// what real services send parses, and each way out of the grammar is found where it happens.
import { describe, expect, it } from 'vitest';
import { parseChallenges } from '../../suites/support/challenges.js';

describe('parseChallenges', () => {
  it.each([
    ['Bearer', ['bearer']],
    ['Bearer realm="agent-memory", resource_metadata="http://127.0.0.1:1/.well-known/oauth-protected-resource"', ['bearer']],
    ['Basic realm="x", bearer realm="y", error="invalid_token"', ['basic', 'bearer']],
    ['Bearer realm="a", error_description="it\'s \\"bad\\""', ['bearer']],
    ['Basic dXNlcjpwYXNz==', ['basic']],
    ['Bearer error=invalid_token', ['bearer']],
    // RFC 9110 §11.6.1's own example: two challenges, the second after the first's parameters.
    ['Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"', ['newauth', 'basic']],
    [', Bearer ,', ['bearer']],
    ['Bearer realm = "x"', ['bearer']],
  ])('%s is well formed', (value, schemes) => {
    expect(parseChallenges(value)).toEqual({ ok: true, schemes });
  });

  it.each([
    ['Bearer realm="x"; charset="utf-8"', 'expected a comma or the end after an auth-param', 16],
    ['Bearer realm=My API', 'expected a comma or the end after an auth-param', 16],
    // No auth-param (a quoted string never closed), so read as the token68 "realm=", which the quote then follows.
    ['Bearer realm="unclosed', 'expected a comma or the end after a token68', 13],
    ['"Bearer"', 'expected an auth-scheme (a token)', 0],
    ['Bearer realm="x" error="y"', 'expected a comma or the end after an auth-param', 17],
    ['Bearer=', 'expected a space, a comma or the end after the auth-scheme', 6],
    ['Basic dXNl cjpw', 'expected a comma or the end after a token68', 11],
  ])('%s is not: %s', (value, reason, at) => {
    expect(parseChallenges(value)).toEqual({ ok: false, reason, at });
  });
});
