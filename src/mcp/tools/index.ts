// Every tool family registers here; the dispatcher filters per caller.
import type { ToolDef } from '../tool.js';
import { noteReadTools } from './notes-read.js';
import { vaultInfoTools } from './vault-info.js';
import { fileReadTools } from './files-read.js';
import { semanticTools } from './search-semantic.js';
import { keywordTools } from './search-keyword.js';
import { noteWriteTools } from './notes-write.js';
import { fileWriteTools } from './files-write.js';
import { conventionTools } from './conventions.js';
import { summarizeTools } from './summarize.js';
import { jobTools } from './jobs.js';
import { graphTools } from './graph/index.js';
import { taskTools } from './tasks.js';
import { timeTools } from './time.js';
import { transferTools } from './transfer.js';
import { importTools } from './import.js';
import { gitTools } from './git.js';

export function allTools(): ToolDef[] {
  return [...noteReadTools, ...vaultInfoTools, ...fileReadTools, ...keywordTools, ...semanticTools, ...summarizeTools, ...jobTools, ...conventionTools, ...noteWriteTools, ...fileWriteTools, ...graphTools, ...taskTools, ...timeTools, ...transferTools, ...importTools, ...gitTools];
}
