// Registers keyword search: deps.services.keyword (KeywordService, also the KeywordRanker hybrid search
// uses) and its index status provider (stats, /health, the Obsidian status bar).
import type { Feature } from '../feature.js';
import type { IndexStatusProvider } from '../services/status.js';
import { KeywordService } from './service.js';

export const keywordFeature: Feature = {
  name: 'keyword',
  async setup(deps) {
    const svc = new KeywordService({
      host: deps.host,
      settings: deps.settings,
      now: deps.now,
      log: deps.services.log,
    });
    deps.services.keyword = svc;
    const provider: IndexStatusProvider = { status: () => svc.status() };
    const list = deps.services.indexes ?? [];
    list.push(provider);
    deps.services.indexes = list;
    void svc.start();
    return { stop: () => svc.stop() };
  },
};
