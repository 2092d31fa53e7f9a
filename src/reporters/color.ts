// One colour policy for every console output: none when NO_COLOR is set or the stream is not a TTY.
import { Chalk, type ChalkInstance } from 'chalk';

export function colorFor(stream: NodeJS.WriteStream): ChalkInstance {
  const off = (process.env.NO_COLOR ?? '') !== '' || !stream.isTTY;
  return new Chalk({ level: off ? 0 : 1 });
}
