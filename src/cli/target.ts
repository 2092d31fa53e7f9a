// The target of a command that talks to a conformance server, in words. Every such command
// resolves its target the same way — --url, then TCK_URL, then "url" in the config file
// (run-config.ts), then, where the command allows it, the embedded reference server — and says
// which one it used before it starts.

export interface TargetFlags {
  url?: string;
  /** Where `url` came from ("--url", "TCK_URL", "\"url\" in tck.config.json"); undefined: no URL was given. */
  urlFrom?: string;
}

/** "http://127.0.0.1:3001 (from TCK_URL)", or "the embedded reference server at http://127.0.0.1:41234". */
export function targetWords(url: string, from: string | undefined, embedded: boolean): string {
  if (embedded) return `the embedded reference server at ${url} (no --url, TCK_URL or "url" in a config file)`;
  return from === undefined ? url : `${url} (from ${from})`;
}
