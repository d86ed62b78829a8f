// Every setting's default in one object (the plugin persists it, the CLI overrides it with flags):
// the core's limits plus each feature's own defaults. Kept out of src/core so the core imports no feature.
import { CORE_DEFAULTS, migrateSettings, type Settings } from './core/settings.js';
import { SEMANTIC_DEFAULTS } from './semantic/settings.js';

export const DEFAULT_SETTINGS: Settings = {
  ...CORE_DEFAULTS,
  // Semantic search (embeddingModel '' = off, embeddingQueryPrefix, chunk budget/overlap, skip globs, RRF k…).
  ...SEMANTIC_DEFAULTS,
};

/** Saved or partial settings completed with every default, old names migrated. */
export function withDefaults(partial: Partial<Settings> | undefined | null): Settings {
  return migrateSettings({ ...DEFAULT_SETTINGS, ...(partial ?? {}) }, partial);
}
