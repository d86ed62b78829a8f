// conformance-table.mjs RESULTS_DIR — the table of an official MCP conformance run (`conformance server
// -o RESULTS_DIR`): one row per scenario with its checks, and, for scenarios that call fixture tools,
// resources or prompts of the suite's own test server (which a vault server cannot have), what they call.
// Exit status 1 when a scenario that needs no fixture failed.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What each scenario calls that only the suite's reference test server has. */
export const FIXTURES = {
  'completion-complete': 'prompt test_prompt_with_arguments',
  'tools-call-simple-text': 'tool test_simple_text',
  'tools-call-image': 'tool test_image_content',
  'tools-call-audio': 'tool test_audio_content',
  'tools-call-embedded-resource': 'tool test_embedded_resource',
  'tools-call-mixed-content': 'tool test_multiple_content_types',
  'tools-call-with-logging': 'tool test_tool_with_logging',
  'tools-call-error': 'tool test_error_handling',
  'tools-call-with-progress': 'tool test_tool_with_progress',
  'tools-call-sampling': 'tool test_sampling',
  'tools-call-elicitation': 'tool test_elicitation',
  'json-schema-2020-12': 'tool json_schema_2020_12_tool',
  'elicitation-sep1034-defaults': 'tool test_elicitation_sep1034_defaults',
  'elicitation-sep1330-enums': 'tool test_elicitation_sep1330_enums',
  'server-sse-polling': 'tool test_reconnection',
  'resources-read-text': 'resource test://static-text',
  'resources-read-binary': 'resource test://static-binary',
  'resources-templates-read': 'resource template test://template/{id}/data',
  'resources-subscribe': 'resource test://watched-resource',
  'resources-unsubscribe': 'resource test://watched-resource',
  'prompts-get-simple': 'prompt test_simple_prompt',
  'prompts-get-with-args': 'prompt test_prompt_with_arguments',
  'prompts-get-embedded-resource': 'prompt test_prompt_with_embedded_resource',
  'prompts-get-with-image': 'prompt test_prompt_with_image',
};

/** Why a fixture scenario passes anyway: it only checks the shape of any answer. */
const SHAPE_ONLY = {
  'tools-call-simple-text': 'passes on our "no such tool" refusal: it only checks for a text result',
  'tools-call-error': 'passes on our "no such tool" refusal: it checks for isError with a text, which any refusal has',
};

export function readRuns(dir) {
  const runs = [];
  // In the order the suite ran them (the folder names end in the run's time).
  const stamp = (d) => /(\d{4}-\d\d-\d\dT[\d-]+Z)$/.exec(d)?.[1] ?? '';
  for (const d of readdirSync(dir).sort((a, b) => (stamp(a) < stamp(b) ? -1 : stamp(a) > stamp(b) ? 1 : 0))) {
    const m = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(d);
    if (!m) continue;
    const checks = JSON.parse(readFileSync(join(dir, d, 'checks.json'), 'utf8'));
    const failed = checks.filter((c) => c.status === 'FAILURE');
    const passed = checks.filter((c) => c.status === 'SUCCESS');
    const warned = checks.filter((c) => c.status === 'WARNING');
    runs.push({ scenario: m[1], ok: failed.length === 0 && passed.length > 0, passed: passed.length, failed: failed.length, warned: warned.length, errors: failed.map((c) => c.errorMessage ?? c.id) });
  }
  return runs;
}

const short = (s) => String(s ?? '').replace(/^Failed: /, '').replace(/\s+/g, ' ').replace(/\|/g, '\\|').slice(0, 90);

export function table(runs) {
  const rows = runs.map((r) => {
    const fixture = FIXTURES[r.scenario];
    const note = fixture
      ? (r.ok ? SHAPE_ONLY[r.scenario] ?? `needs the suite's ${fixture}` : `needs the suite's ${fixture} (our answer: ${short(r.errors[0])})`)
      : (r.ok ? '' : short(r.errors.join('; ')));
    return `| ${r.scenario} | ${r.ok ? 'pass' : 'FAIL'} | ${r.passed}/${r.passed + r.failed}${r.warned ? ` (${r.warned} warning${r.warned > 1 ? 's' : ''})` : ''} | ${fixture ? 'yes' : 'no'} | ${note} |`;
  });
  const own = runs.filter((r) => !FIXTURES[r.scenario]);
  const summary = `${runs.filter((r) => r.ok).length} of ${runs.length} scenarios pass; ${own.filter((r) => r.ok).length} of the ${own.length} that need no fixture pass.`;
  return [summary, '', '| scenario | result | checks passed | needs a fixture | note |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2];
  if (!dir) { console.error('usage: node scripts/conformance-table.mjs RESULTS_DIR'); process.exit(2); }
  const runs = readRuns(dir);
  console.log(table(runs));
  process.exit(runs.some((r) => !FIXTURES[r.scenario] && !r.ok) || !runs.length ? 1 : 0);
}
