// Registers the audit log (deps.services.audit) and its middleware.
import type { Feature } from '../feature.js';
import { AuditLog } from './log.js';
import { auditMiddleware } from '../mcp/middleware/audit.js';

export const auditFeature: Feature = {
  name: 'audit',
  async setup(deps) {
    const now = () => deps.now();
    const log = new AuditLog(deps.host.data, deps.settings, now);
    await log.load().catch(() => undefined);
    deps.services.audit = log;
    // Keys are attached after the features (runtime.ts), so the secrets are looked up per call.
    const secrets = () => [...(deps.services.keys?.secrets() ?? []), ...[deps.services.llmKey?.()].filter((k): k is string => !!k)];
    deps.middleware.push(auditMiddleware(log, now, secrets));
    return { stop: async () => { await log.flush(); log.stop(); } };
  },
};
