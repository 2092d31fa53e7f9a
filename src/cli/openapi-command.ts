// `tck openapi [--hosted] [--out FILE]`: the protocol as an OpenAPI 3.1 document (src/openapi/).
import { bridgeOpenApi } from '../openapi/bridge.js';
import { hostedOpenApi } from '../openapi/hosted.js';
import { writeOutputFile } from './output-file.js';

export async function openapiCommand(flags: { hosted?: boolean; out?: string }): Promise<void> {
  const text = `${JSON.stringify(flags.hosted ? hostedOpenApi() : bridgeOpenApi(), null, 2)}\n`;
  if (flags.out === undefined) {
    process.stdout.write(text);
    return;
  }
  await writeOutputFile(flags.out, text);
}
