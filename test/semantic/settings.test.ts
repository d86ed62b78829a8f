// Semantic settings: every default is in DEFAULT_SETTINGS (the plugin persists them) and the ones a
// headless user needs are `serve` flags.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_SETTINGS, withDefaults } from '../../src/settings.js';
import { settingFlags } from '../../src/cli/flags.js';
import { SEMANTIC_DEFAULTS, semanticSettings } from '../../src/semantic/settings.js';

test('embedding defaults live in DEFAULT_SETTINGS; model, query prefix, chunk budget/overlap, skip globs and RRF k are CLI flags', () => {
  for (const [k, v] of Object.entries(SEMANTIC_DEFAULTS)) assert.deepEqual(DEFAULT_SETTINGS[k], v, k);
  assert.equal(DEFAULT_SETTINGS.embeddingModel, '', 'semantic search is off until a model is set');
  const s = withDefaults({ embeddingChunkTokens: 128 });
  assert.equal(semanticSettings(s).embeddingChunkTokens, 128);
  assert.equal(semanticSettings(s).embeddingChunkOverlap, 32);
  const flags = new Map(settingFlags.map((f) => [f.key, f.flag]));
  for (const key of ['embeddingBackend', 'embeddingQueryPrefix', 'embeddingChunkTokens', 'embeddingChunkOverlap', 'embeddingSkipGlobs', 'hybridRrfK']) assert.ok(flags.has(key), key);
  assert.equal(semanticSettings(withDefaults({ embeddingSkipGlobs: 'Archive/*, *.excalidraw.md' as unknown as string[] })).embeddingSkipGlobs.join('|'), 'Archive/*|*.excalidraw.md');
});
