// Types of bench/fuzz.mjs, for the reliability tests (test/reliability/).
export function seeded(seed: number): () => number;
export function value(random: () => number, depth?: number): unknown;
export function object(random: () => number, depth?: number): Record<string, unknown>;
export function body(random: () => number): string;
