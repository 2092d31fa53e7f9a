// One colour policy for every console output: none when NO_COLOR is set or the stream is not a TTY;
// FORCE_COLOR (1, 2, 3, or empty/true for 1; 0/false for none) wins, as CI logs that render colour want.
import { Chalk, type ChalkInstance } from 'chalk';

export interface ColorTarget {
  isTTY?: boolean;
}

export function colorFor(stream: ColorTarget): ChalkInstance {
  const force = process.env.FORCE_COLOR;
  if (force !== undefined) {
    const level = force === '' || force === 'true' ? 1 : force === 'false' ? 0 : Math.min(3, Math.max(0, Number.parseInt(force, 10) || 0));
    return new Chalk({ level: level as 0 | 1 | 2 | 3 });
  }
  const off = (process.env.NO_COLOR ?? '') !== '' || !stream.isTTY;
  return new Chalk({ level: off ? 0 : 1 });
}
