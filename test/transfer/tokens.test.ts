// The transfer token store on its own: injected clock and randomness, no I/O.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TransferStore, hashToken, clampTtl, TOKEN_PREFIX, KEEP_FINISHED_MS } from '../../src/transfer/tokens.js';

function store() {
  const clock = { t: 1_000_000 };
  let n = 0;
  const random = (len: number) => { const b = Buffer.alloc(len); b.writeUInt32BE(++n, 0); return b; };
  return { clock, s: new TransferStore(() => clock.t, random) };
}

const dl = { keyId: 'k1', keyName: 'one', path: 'a.pdf', contentHash: 'sha256:' + '0'.repeat(64), size: 3 };

test('tokens are prefixed 256-bit values and the store holds only their hashes', () => {
  const real = new TransferStore();
  const { token } = real.mintDownload(dl);
  assert.ok(token.startsWith(TOKEN_PREFIX));
  assert.equal(Buffer.from(token.slice(TOKEN_PREFIX.length), 'base64url').length, 32);
  const inner = JSON.stringify([...(real as unknown as { byHash: Map<string, unknown> }).byHash.entries()]);
  assert.ok(!inner.includes(token) && !inner.includes(token.slice(TOKEN_PREFIX.length)), 'raw token not stored');
  assert.ok(inner.includes(hashToken(token)));
  assert.notEqual(real.mintDownload(dl).token, token);
});

test('ttl is clamped to 60..3600 s, default 600', () => {
  assert.equal(clampTtl(undefined), 600);
  assert.equal(clampTtl(1), 60);
  assert.equal(clampTtl(99999), 3600);
});

test('download links are reusable until expiry, then dead', () => {
  const { clock, s } = store();
  const { token, expires } = s.mintDownload({ ...dl, ttlS: 60 });
  assert.equal(expires, clock.t + 60_000);
  assert.equal(s.redeem(token)?.path, 'a.pdf');
  assert.equal(s.redeem(token)?.path, 'a.pdf');
  clock.t = expires - 1;
  assert.ok(s.redeem(token));
  clock.t = expires;
  assert.equal(s.redeem(token), null);
});

test('every bad token is the same null', () => {
  const { s } = store();
  const { token } = s.mintDownload(dl);
  for (const bad of [null, undefined, '', 'nope', TOKEN_PREFIX + 'x', token + 'x', token.toUpperCase(), 'x'.repeat(500)]) assert.equal(s.redeem(bad as string), null);
});

test('upload links: single use, states, visible only to the minting key, failure keeps them pending', () => {
  const { clock, s } = store();
  const { token, uploadId } = s.mintUpload({ keyId: 'k1', keyName: 'one', path: 'in/x.pdf', overwrite: false });
  assert.deepEqual(s.status(uploadId, 'k1'), { status: 'pending', path: 'in/x.pdf', expires_at: clock.t + 600_000 });
  assert.deepEqual(s.status(uploadId, 'k2'), { status: 'unknown' });
  assert.deepEqual(s.status('up_missing', 'k1'), { status: 'unknown' });
  const l = s.redeem(token);
  assert.ok(l && l.kind === 'upload');
  s.begin(l);
  assert.equal(s.status(uploadId, 'k1').status, 'uploading');
  assert.equal(s.redeem(token), null, 'in progress: a second request is refused');
  s.fail(l, 'too big');
  assert.deepEqual(s.status(uploadId, 'k1'), { status: 'pending', path: 'in/x.pdf', expires_at: clock.t + 600_000, last_error: 'too big' });
  const again = s.redeem(token);
  assert.ok(again && again.kind === 'upload');
  s.begin(again);
  s.complete(again, { path: 'in/x.pdf', size: 3, sha256: 'ab', mime: 'application/pdf', created: true });
  assert.equal(s.redeem(token), null, 'used');
  assert.deepEqual(s.status(uploadId, 'k1'), { status: 'completed', path: 'in/x.pdf', size: 3, sha256: 'ab', mime: 'application/pdf', created: true, completed_at: clock.t });
  clock.t += KEEP_FINISHED_MS + 1;
  assert.deepEqual(s.status(uploadId, 'k1'), { status: 'unknown' }, 'forgotten a day after it ended');
});

test('expired and revoked uploads say so; revoking a key kills all its links', () => {
  const { clock, s } = store();
  const a = s.mintUpload({ keyId: 'k1', keyName: 'one', path: 'a', overwrite: false, ttlS: 60 });
  const b = s.mintUpload({ keyId: 'k1', keyName: 'one', path: 'b', overwrite: false });
  const d = s.mintDownload(dl);
  const other = s.mintDownload({ ...dl, keyId: 'k2' });
  clock.t += 61_000;
  assert.equal(s.status(a.uploadId, 'k1').status, 'expired');
  s.sweep((id) => id !== 'k1');
  assert.equal(s.status(b.uploadId, 'k1').status, 'revoked');
  assert.equal(s.redeem(b.token), null);
  assert.equal(s.redeem(d.token), null);
  assert.ok(s.redeem(other.token), 'other keys unaffected');
});
