// The defaults of `tck explore`, in one place for the CLI and explore() itself. The time budget is
// the real bound; runs only caps a fast server: at the reference server's pace 1 000 sequences
// take well under the budget, and the stateful defects of test/explore/faults.ts need up to a few
// hundred sequences to meet (one in each area to focus on, see sequences in commands.ts).
export const EXPLORE_DEFAULTS = {
  /** Sequences to try: --runs. */
  runs: 1_000,
  /** Longest sequence: --max-steps. */
  maxSteps: 40,
  /** Bound on exploring and shrinking: --time-budget. */
  timeBudgetMs: 60_000,
} as const;
