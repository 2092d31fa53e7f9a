// The WWW-Authenticate field read by its grammar (RFC 9110 §11.6.1 and §11.3):
//   WWW-Authenticate = #challenge
//   challenge        = auth-scheme [ 1*SP ( token68 / #auth-param ) ]
//   auth-param       = token BWS "=" BWS ( token / quoted-string )
//   token68          = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="
// A list (#) may hold empty elements and optional whitespace around its commas (RFC 9110 §5.6.1).
// A sender MUST NOT generate a field that does not match its grammar (RFC 9110 §2.1).

type ParsedChallenges = { ok: true; schemes: string[] } | { ok: false; at: number; reason: string };

const TOKEN = /[!#$%&'*+\-.^_`|~0-9A-Za-z]+/y;
const TOKEN68 = /[A-Za-z0-9\-._~+/]+=*/y;
const QUOTED = /"(?:[\t \x21\x23-\x5B\x5D-\x7E\x80-\xFF]|\\[\t \x21-\x7E\x80-\xFF])*"/y;
const OWS = /[ \t]*/y;

/** The schemes of a well-formed WWW-Authenticate value (lower case), or where and why it leaves the grammar. */
export function parseChallenges(value: string): ParsedChallenges {
  let i = 0;
  const at = (re: RegExp): string => {
    re.lastIndex = i;
    const m = re.exec(value);
    if (m === null) return '';
    i += m[0].length;
    return m[0];
  };
  const ows = () => void at(OWS);
  const end = () => i >= value.length;
  const fail = (reason: string): ParsedChallenges => ({ ok: false, at: i, reason });
  /** An auth-param at i (consumed), or false with i unchanged. */
  const param = (): boolean => {
    const start = i;
    if (at(TOKEN) === '') return false;
    ows();
    if (value[i] !== '=') return void (i = start), false;
    i++;
    ows();
    if (at(QUOTED) !== '' || at(TOKEN) !== '') return true;
    i = start;
    return false;
  };
  const schemes: string[] = [];
  for (;;) {
    ows();
    if (end()) break;
    if (value[i] === ',') {
      i++;
      continue;
    }
    const scheme = at(TOKEN);
    if (scheme === '') return fail('expected an auth-scheme (a token)');
    schemes.push(scheme.toLowerCase());
    const spaces = at(/ +/y);
    if (end()) break;
    if (value[i] === ',') continue;
    if (spaces === '') return fail('expected a space, a comma or the end after the auth-scheme');
    if (param()) {
      // #auth-param: more parameters after commas, until an element that is no parameter (the next challenge).
      for (;;) {
        ows();
        if (end()) break;
        if (value[i] !== ',') return fail('expected a comma or the end after an auth-param');
        while (value[i] === ',' || value[i] === ' ' || value[i] === '\t') i++;
        if (end() || !param()) break;
      }
    } else {
      if (at(TOKEN68) === '') return fail('expected a token68 or an auth-param after the auth-scheme');
      ows();
      if (!end() && value[i] !== ',') return fail('expected a comma or the end after a token68');
    }
  }
  return { ok: true, schemes };
}
