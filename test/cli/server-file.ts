// A server written as one file (the example of docs/writing-a-server.md, or a copy of it), started
// as a vendor starts theirs: `node FILE 0`, on a free port, its URL read from the line it prints.
import { spawn, type ChildProcess } from 'node:child_process';

/** Starts `file` on a free port; resolves with the URL it prints. The child joins `children`, which the test stops. */
export function startServerFile(file: string, children: ChildProcess[], env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(process.execPath, [file, '0'], { env });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`the example exited ${code}: ${out}`)));
  });
}
