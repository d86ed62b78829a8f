// Registers the change feed (deps.services.changes). The write tools attribute their writes through
// `attributed(...)` / `attributeMaybe(...)` in services/writeSupport.ts (notes-write.ts asCaller),
// which call recordOwn before writing and withdraw the record when the write fails (see service.ts).
import type { Feature } from '../feature.js';
import { ChangeService } from './service.js';

export const changesFeature: Feature = {
  name: 'changes',
  async setup(deps) {
    const svc = new ChangeService({ host: deps.host, settings: deps.settings, now: deps.now, log: deps.services.log });
    deps.services.changes = svc;
    void svc.start();
    return { stop: () => svc.stop() };
  },
};
