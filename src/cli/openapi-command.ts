// `tck openapi [--hosted] [--out FILE]`: the protocol as an OpenAPI 3.1 document (src/protocols/bridge/openapi.ts, src/protocols/hosted/openapi.ts).
import { bridgeOpenApi } from '../protocols/bridge/openapi.js';
import { hostedOpenApi } from '../protocols/hosted/openapi.js';
import { writeOutputFile } from './output-file.js';
import { ensureWritableFile } from './paths.js';

export async function openapiCommand(flags: { hosted?: boolean; out?: string }): Promise<void> {
  if (flags.out !== undefined) await ensureWritableFile(flags.out, '--out');
  const text = `${JSON.stringify(flags.hosted ? hostedOpenApi() : bridgeOpenApi(), null, 2)}\n`;
  if (flags.out === undefined) {
    process.stdout.write(text);
    return;
  }
  await writeOutputFile(flags.out, text);
}
