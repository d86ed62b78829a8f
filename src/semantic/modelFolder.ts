// Model folders on disk (no runtime loaded): the settings tab checks them without pulling in
// transformers.js, which only server.js carries.
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

/** Where a configured model lives on disk; never touches the network. */
export function resolveModelFolder(model: string, modelsDir: string): string {
  if (isAbsolute(model) || model.startsWith('.')) return resolve(model);
  return join(modelsDir, ...model.split('/'));
}

export function modelFileName(folder: string): string | null {
  for (const f of ['onnx/model_quantized.onnx', 'onnx/model.onnx']) if (existsSync(join(folder, f))) return f;
  return null;
}

/** Checks a model folder, returning why it cannot be used, or null. */
export function modelProblem(folder: string): string | null {
  if (!existsSync(folder)) return `the model folder ${folder} does not exist (download the model in the plugin settings, or point the embedding model setting at a folder in the transformers.js layout)`;
  for (const f of ['config.json', 'tokenizer.json']) if (!existsSync(join(folder, f))) return `the model folder ${folder} has no ${f}`;
  if (!modelFileName(folder)) return `the model folder ${folder} has no onnx/model_quantized.onnx or onnx/model.onnx`;
  return null;
}

