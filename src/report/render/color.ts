// One colour policy for every console output: none when NO_COLOR is set or the stream is not a TTY.
import { Chalk, type ChalkInstance } from 'chalk';

export interface ColorTarget {
  isTTY?: boolean;
}

export function colorFor(stream: ColorTarget): ChalkInstance {
  const off = (process.env.NO_COLOR ?? '') !== '' || !stream.isTTY;
  return new Chalk({ level: off ? 0 : 1 });
}
