// The two undici modules the transport stands on, imported by their own files (transport.ts says
// why). undici 7 has no "exports" map, so these paths are public to Node; their types are the
// package's own.
declare module 'undici/lib/dispatcher/client.js' {
  import { Client } from 'undici';
  export default Client;
}
declare module 'undici/lib/dispatcher/pool.js' {
  import { Pool } from 'undici';
  export default Pool;
}
