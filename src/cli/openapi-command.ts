// `tck openapi [--hosted] [--out FILE]`: the protocol as an OpenAPI 3.1 document (src/openapi/).
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { bridgeOpenApi } from '../openapi/bridge.js';
import { hostedOpenApi } from '../openapi/hosted.js';
import { CliError } from './exit.js';

export async function openapiCommand(flags: { hosted?: boolean; out?: string }): Promise<void> {
  const text = `${JSON.stringify(flags.hosted ? hostedOpenApi() : bridgeOpenApi(), null, 2)}\n`;
  if (flags.out === undefined) {
    process.stdout.write(text);
    return;
  }
  const out = resolve(flags.out);
  try {
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, text);
  } catch (err) {
    throw new CliError(`cannot write ${out}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}
