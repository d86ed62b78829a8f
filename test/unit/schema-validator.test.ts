// Every session's MCP server shares one JSON Schema validator, made on first use (src/mcp/server.ts):
// the SDK otherwise builds an Ajv instance per session for form elicitation, which this server never uses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildServer, sharedSchemaValidator } from '../../src/mcp/server.js';
import { startTestRuntime } from '../helpers/runtime.js';
import { copyVault, removeDir } from '../helpers/vault.js';

test('sessions share one schema validator, and it validates', async () => {
  const vault = copyVault();
  const t = await startTestRuntime(vault);
  try {
    const caller = { keyId: 'k', keyName: 'test', scope: 'read' as const, root: '', disabledFamilies: [] };
    const validatorOf = (s: ReturnType<typeof buildServer>) => (s.server as unknown as { _jsonSchemaValidator: unknown })._jsonSchemaValidator;
    const a = buildServer(t.rt.deps, caller);
    const b = buildServer(t.rt.deps, caller);
    assert.equal(validatorOf(a), sharedSchemaValidator);
    assert.equal(validatorOf(b), sharedSchemaValidator);
    const check = sharedSchemaValidator.getValidator<{ n: number }>({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] });
    assert.equal(check({ n: 1 }).valid, true);
    const bad = check({ n: 'x' });
    assert.equal(bad.valid, false);
    assert.match(String(bad.errorMessage), /number/);
  } finally {
    await t.stop();
    removeDir(vault);
  }
});
