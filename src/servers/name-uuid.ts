// Name-based UUIDs (RFC 9562 §5.5, version 5: SHA-1 of a namespace and a name). A store answers
// the same id for the same name without keeping anything per name, so a read of something that
// does not exist allocates no lasting state, however many distinct names it is asked for.
import { createHash } from 'node:crypto';

/** The version 5 UUID of `name` in `namespace` (a UUID). */
export function uuidV5(namespace: string, name: string): string {
  const hash = createHash('sha1').update(Buffer.from(namespace.replace(/-/g, ''), 'hex')).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
