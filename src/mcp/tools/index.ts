// Every tool family registers here; the dispatcher filters per caller.
import type { ToolDef } from '../tool.js';
import { noteReadTools } from './notes-read.js';
import { vaultInfoTools } from './vault-info.js';
import { fileReadTools } from './files-read.js';

export function allTools(): ToolDef[] {
  return [...noteReadTools, ...vaultInfoTools, ...fileReadTools] as unknown as ToolDef[];
}
