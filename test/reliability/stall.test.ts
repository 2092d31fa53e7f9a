// Issue 25, item 8: a connection whose client stopped reading is cut about `writeStallMs` after it
// stopped (15 s by default), not up to twice that. The unsent output is looked at every second; a
// fake clock and a fake socket make this a count, not a timing.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchStall } from '../../src/servers/http-plumbing.js';

function fakeSocket() {
  const socket = {
    writableLength: 0,
    destroyed: false,
    destroy() {
      socket.destroyed = true;
      return socket;
    },
    once: () => socket,
    off: () => socket,
  };
  return socket;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('the write-stall watch', () => {
  it('cuts a client that stops reading at any moment within 15 s + 2 looks of its stopping, and not before 15 s', () => {
    for (const stopsAt of [0, 100, 999, 1_000, 7_500, 14_999]) {
      const socket = fakeSocket();
      const stop = watchStall(socket as never, 15_000);
      vi.advanceTimersByTime(stopsAt);
      socket.writableLength = 64 * 1024; // an answer the client no longer reads
      vi.advanceTimersByTime(15_000 - 1);
      expect(socket.destroyed, `stopped at ${stopsAt} ms: cut before 15 s`).toBe(false);
      vi.advanceTimersByTime(2_000 + 1);
      expect(socket.destroyed, `stopped at ${stopsAt} ms`).toBe(true);
      stop();
    }
  });

  it('a client that reads slowly but steadily is never cut; an emptied buffer starts over', () => {
    const socket = fakeSocket();
    const stop = watchStall(socket as never, 15_000);
    socket.writableLength = 1_000_000;
    for (let i = 0; i < 120; i++) {
      vi.advanceTimersByTime(1_000);
      socket.writableLength -= 1_000; // one kilobyte a second
    }
    expect(socket.destroyed).toBe(false);
    socket.writableLength = 0;
    vi.advanceTimersByTime(60_000);
    expect(socket.destroyed).toBe(false);
    stop();
  });
});
