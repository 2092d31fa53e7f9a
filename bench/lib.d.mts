// Types of bench/lib.mjs, for the test of the bench's building blocks (test/bench/).
import type { MemoryStore, MemoryStoreOptions, RunningBridgeServer } from '../src/servers/bridge/index.js';
import type { TckOptions } from '../src/run/run.js';

export interface CountingIds {
  (): string;
  mark(): void;
  rewind(): void;
}
export function countingIds(): CountingIds;

export class ResidentStore extends MemoryStore {
  constructor(resident: number, options?: MemoryStoreOptions);
}

export interface BenchServer extends RunningBridgeServer {
  reset(): void;
}
export function startServer(options?: { latencyMs?: number; resident?: number; hosted?: boolean }): Promise<BenchServer>;

export interface RecordedRequest {
  path: string;
  body: string;
  status: number | undefined;
}
export function recordedRun(
  url: string,
  options?: Omit<TckOptions, 'url' | 'onExchange'>,
): Promise<{ ms: number; requests: number; achieved: string | null; passed: number; scenarios: number; sequence: RecordedRequest[] }>;
export function plainRun(url: string): Promise<{ ms: number; achieved: string | null }>;
export function replay(url: string, sequence: readonly RecordedRequest[]): Promise<{ ms: number; statuses: number[] }>;
export function statusMismatches(sequence: readonly RecordedRequest[], statuses: readonly number[]): number[];
export function median(values: readonly number[]): number;

export interface SpawnedServer {
  url: string;
  pid: number;
  reset(): Promise<void>;
  close(): Promise<void>;
  peakRssKb(): Promise<number | null>;
}
export function spawnServer(args: string[]): Promise<SpawnedServer>;
export function peakRssKb(pid: number): Promise<number | null>;
