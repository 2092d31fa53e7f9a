// One colour policy for every console output. NO_COLOR (non-empty) turns colour off, whatever else
// is set (no-color.org: the user's opt-out wins). Otherwise FORCE_COLOR decides when it is set and
// non-empty (force-color.org): 0 or false turns colour off, 2 and 3 choose 256 colours and true
// colour, any other value basic colour — on a pipe too, for CI logs that render ANSI. Otherwise a
// TTY gets basic colour and anything else none.
import { Chalk, type ChalkInstance } from 'chalk';

export interface ColorTarget {
  isTTY?: boolean;
}

type Level = 0 | 1 | 2 | 3;

function levelFor(stream: ColorTarget, env: NodeJS.ProcessEnv): Level {
  if ((env.NO_COLOR ?? '') !== '') return 0;
  const force = env.FORCE_COLOR ?? '';
  if (force !== '') {
    if (force === '0' || force.toLowerCase() === 'false') return 0;
    return force === '2' ? 2 : force === '3' ? 3 : 1;
  }
  return stream.isTTY ? 1 : 0;
}

export function colorFor(stream: ColorTarget, env: NodeJS.ProcessEnv = process.env): ChalkInstance {
  return new Chalk({ level: levelFor(stream, env) });
}
