// Registers the limits: deps.services.limits ({limiter, usage, authThrottle}), the per-address
// failed-auth budget for the HTTP app (deps.services.http.authThrottle, spread into createHttpApp by
// runtime.ts) and the middleware every tool call passes.
import type { Feature } from '../feature.js';
import type { LimitServices } from './services.js';
import { AuthThrottle } from './authThrottle.js';
import { Limiter } from './limiter.js';
import { UsageStore } from './usage.js';
import { limitSettings } from './settings.js';
import { limitsMiddleware } from '../mcp/middleware/limits.js';


export const limitsFeature: Feature = {
  name: 'limits',
  async setup(deps) {
    const now = () => deps.now();
    const usage = new UsageStore(deps.host.data, now);
    await usage.load();
    const keyRecord = (id: string) => deps.services.keys?.list().find((k) => k.id === id);
    const limiter = new Limiter(deps.settings, usage, keyRecord, now);
    const authThrottle = new AuthThrottle(() => {
      const s = limitSettings(deps.settings());
      return { budget: s.authFailureBudget, windowMinutes: s.authFailureWindowMinutes };
    }, now);
    const services: LimitServices = { limiter, usage, authThrottle };
    deps.services.limits = services;
    deps.services.http = { ...deps.services.http, authThrottle };
    deps.middleware.push(limitsMiddleware(limiter, usage));
    return { stop: () => usage.flush() };
  },
};
