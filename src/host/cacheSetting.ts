// The "keep caches in the vault" setting alone (no Node modules: the settings tab uses it).
import type { Settings } from '../core/settings.js';

export const CACHE_DEFAULTS = {
  /** Keep the rebuildable caches in the plugin folder inside the vault (old behaviour) instead. */
  cacheInVault: false,
};

export function cacheInVault(s: Settings): boolean {
  return typeof s.cacheInVault === 'boolean' ? s.cacheInVault : CACHE_DEFAULTS.cacheInVault;
}
