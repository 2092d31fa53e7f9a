// The bridge protocol version this kit checks and its reference server speaks (bridge-protocol.md).
export const PROTOCOL_VERSION = '0.1.0';

/** "0.1" of "0.1.0": versions that share it are compatible. */
export const majorMinor = (v: string): string => v.split('.').slice(0, 2).join('.');
