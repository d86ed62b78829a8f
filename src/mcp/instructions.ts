import type { ServerDeps } from './tool.js';
import { llmInstructionLines } from '../llm/settings.js';

/** Short server instructions sent in the initialize result. */
export function serverInstructions(deps: ServerDeps): string {
  const s = deps.settings();
  const lines = [
    `This server exposes the Obsidian vault "${deps.host.name}": the user's own markdown notes, shared memory between the user and agents.`,
    'Call get_vault_guide first: it has Obsidian syntax and the vault\'s own rules (CLAUDE.md / AGENTS.md).',
    'Find notes with keyword_search (exact words, titles, identifiers) or semantic_search / hybrid_search (paraphrased questions) when listed; browse with list_notes, list_folders, get_tags; read with read_note (use section= or offset= for long notes).',
    'Paths are vault-relative ("Projects/Plan.md"); hidden folders (any name starting with a dot: the app\'s config folder, .git, .trash) are out of reach.',
  ];
  if (!s.readOnly) {
    lines.push('Writing: read first, then pass the content_hash you got as expected_hash so a stale edit is refused instead of overwriting the user\'s changes; prefer targeted edits (find=, section=, append=) over full replaces, and dry_run=true to preview. Deletes go to the trash.');
  } else {
    lines.push('The vault owner has switched on read-only mode: no write tools are available.');
  }
  lines.push(...llmInstructionLines(deps));
  lines.push('Large files move by reference: give the user a request_download link instead of reading a big attachment, and request_upload (when listed) when they want to hand you a file; get_history / get_diff (when listed) show what changed in a vault kept in git.');
  lines.push('A refused call ends with a line "MCP-REFUSAL {...}" whose code says why; its text says how to recover.');
  return lines.join('\n');
}
