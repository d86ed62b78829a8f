// What the limits feature registers as deps.services.limits (the settings tab and activity view read it).
import type { AuthThrottle } from './authThrottle.js';
import type { Limiter } from './limiter.js';
import type { UsageStore } from './usage.js';

export interface LimitServices {
  limiter: Limiter;
  usage: UsageStore;
  authThrottle: AuthThrottle;
}
