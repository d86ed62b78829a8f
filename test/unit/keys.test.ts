import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateRawKey, hashKey, findKey, KEY_PREFIX } from '../../src/core/keys.js';
import { KeyStore } from '../../src/services/keyStore.js';
import { FsDataStore } from '../../src/host/fsDataStore.js';
import { tempDir } from '../helpers/vault.js';

test('raw keys: prefix, 256 bits, distinct; only hashes are stored', async () => {
  const k = generateRawKey();
  assert.ok(k.startsWith(KEY_PREFIX));
  assert.equal(Buffer.from(k.slice(KEY_PREFIX.length), 'base64url').length, 32);
  assert.notEqual(generateRawKey(), k);
  const dir = tempDir('vmcp-keys-');
  let now = 1_000;
  const store = new KeyStore(new FsDataStore(dir), () => now);
  const { raw, record } = await store.add({ name: 'claude', scope: 'readwrite' });
  const file = readFileSync(join(dir, 'keys.json'), 'utf8');
  assert.ok(!file.includes(raw), 'raw key never written');
  assert.ok(file.includes(hashKey(raw)));
  assert.equal((await store.authenticate(raw))?.id, record.id);
  assert.equal(await store.authenticate(raw + 'x'), null);
  assert.equal(await store.authenticate(''), null);
  await assert.rejects(store.add({ name: 'claude', scope: 'read' }), /already exists/);
  await assert.rejects(store.add({ name: 'bad/name', scope: 'read' }), /not allowed/);
  // A second store on the same folder (the CLI while the plugin runs) sees the key and its revocation.
  const other = new KeyStore(new FsDataStore(dir), () => now);
  await other.load();
  assert.equal((await other.authenticate(raw))?.name, 'claude');
  assert.equal(await store.revoke('claude'), true);
  now += 2_500; // past the re-read interval
  assert.equal(await other.authenticate(raw), null);
});

test('expired keys are refused', async () => {
  const dir = tempDir('vmcp-keys-');
  let now = 1_000;
  const store = new KeyStore(new FsDataStore(dir), () => now);
  const { raw } = await store.add({ name: 'temp', scope: 'read', expires: 5_000 });
  assert.ok(await store.authenticate(raw));
  now = 5_000;
  assert.equal(await store.authenticate(raw), null);
});

test('findKey matches by hash only', () => {
  const a = generateRawKey();
  const recs = [{ id: '1', name: 'a', scope: 'read' as const, hash: hashKey(a), created: 0, lastUsed: null }];
  assert.equal(findKey(recs, a)?.name, 'a');
  assert.equal(findKey(recs, a.toUpperCase()), null);
});
