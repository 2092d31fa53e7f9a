// The library: everything a vendor's own test runner needs to host the kit.
export { runTck, type TckOptions } from './run.js';
export { ALL_SCENARIOS, findScenario } from '../suites/index.js';
export { defineScenario, TIERS, type Scenario, type ScenarioTier } from './engine/scenario.js';
export { RunStopped, TargetUnreachable, runScenarios, type ScenarioResult, type Outcome, type SetupInfo } from './engine/runner.js';
export { grade, GRADING_RULES, type Grade, type GradingRuleName, type TierSummary } from './engine/grading.js';
export { selectScenarios, type Selection } from './engine/select.js';
export { BridgeClient, formatExchange, type CallResult, type Exchange } from './bridge/index.js';
export * as schema from './schema/index.js';
export { ReportSchema, REPORT_FORMAT_VERSION, type Report } from './report/model.js';
export { MemoryStore, createDispatcher, startBridgeServer, startReferenceServer } from './reference/index.js';
export { KIT_NAME, KIT_VERSION } from './version.js';
