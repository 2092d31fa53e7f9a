// Name-based UUIDs (RFC 9562 version 5 layout: SHA-1 of a namespace and a name), for ids that must
// be stable across calls without being stored.
import { createHash } from 'node:crypto';

export function nameBasedUuid(namespace: Uint8Array, name: string): string {
  const h = createHash('sha1').update(namespace).update(name, 'utf8').digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
