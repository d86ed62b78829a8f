// Which embedding model `serve` uses, and the line it prints about it: the --embedding-model flag or
// the plugin's setting when one names a model (an id pulled into the shared models folder is found
// there too), else the default `models pull` left, else none (keyword search only).
import { isAbsolute } from 'node:path';
import type { Settings } from '../core/settings.js';
import { semanticSettings } from '../semantic/settings.js';
import { modelProblem, resolveModelFolder } from '../semantic/modelFolder.js';
import { defaultModelsDir, pulledDefault } from './models.js';

/** Sets settings.embeddingModel (and a pulled model's query prefix) when needed; returns the line to print. */
export function chooseServeModel(settings: Settings, vaultModelsDir: string, sharedDir = defaultModelsDir()): string {
  const named = semanticSettings(settings).embeddingModel;
  if (named) {
    const isId = !isAbsolute(named) && !named.startsWith('.');
    if (isId && modelProblem(resolveModelFolder(named, vaultModelsDir)) && !modelProblem(resolveModelFolder(named, sharedDir))) {
      settings.embeddingModel = resolveModelFolder(named, sharedDir);
      return `semantic search: ${named} (from ${sharedDir})`;
    }
    return `semantic search: ${named}`;
  }
  const pulled = pulledDefault(sharedDir);
  if (!pulled) return 'semantic search: off, no embedding model (`node dist/cli.js models pull` downloads one, about 25–35 MB); keyword search works';
  settings.embeddingModel = pulled.folder;
  if (!semanticSettings(settings).embeddingQueryPrefix && pulled.queryPrefix) settings.embeddingQueryPrefix = pulled.queryPrefix;
  return `semantic search: ${pulled.model} (pulled with \`models pull\`, in ${sharedDir})`;
}
