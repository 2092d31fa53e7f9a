// The fields every report starts with, whatever ran: what the kit is, what it ran against, when,
// and on what. runTck and tck explore build their reports on it.
import { PROTOCOL_VERSION } from '../protocols/bridge/version.js';
import { KIT_NAME, KIT_VERSION } from '../util/kit.js';
import { REPORT_FORMAT_VERSION, type Report } from './model.js';

export function reportEnvelope(target: Report['target'], startedAt: Date, endedAt: Date): Pick<Report, 'format' | 'formatVersion' | 'kit' | 'target' | 'startedAt' | 'endedAt' | 'durationMs' | 'environment'> {
  return {
    format: 'agent-memory-tck/report',
    formatVersion: REPORT_FORMAT_VERSION,
    kit: { name: KIT_NAME, version: KIT_VERSION, protocol: PROTOCOL_VERSION },
    target,
    startedAt: startedAt.toISOString(),
    endedAt: endedAt.toISOString(),
    durationMs: endedAt.getTime() - startedAt.getTime(),
    environment: { node: process.version, platform: process.platform, arch: process.arch },
  };
}
