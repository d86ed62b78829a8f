// import_from_url: fetch a web resource straight into the vault, under the outbound deny policy
// (src/net/addressPolicy.ts, src/net/safeFetch.ts) and the safe write path (src/transfer/landing.ts).
import { z } from 'zod';
import { defineTool } from '../tool.js';
import { refuse } from '../../core/errors.js';
import { mimeOf } from '../../core/mime.js';
import { checkDestination, land, landingCap } from '../../transfer/landing.js';
import { safeFetch, FetchError } from '../../net/safeFetch.js';
import { importSettings } from '../../net/settings.js';

/** TEST ONLY, set programmatically: "address:port" pairs reachable although not public, and a DNS stub. */

export const importFromUrl = defineTool({
  name: 'import_from_url',
  title: 'Import from a URL',
  family: 'transfer',
  description: (deps) => {
    const s = importSettings(deps.settings());
    return `Fetch a web resource (${s.importAllowHttp ? 'https or http' : 'https only'}) into the vault at path, not through the conversation; fetched from the user's computer, public addresses only. ` +
      `At most ${landingCap(deps.settings())} bytes and ${s.importTimeoutS} s; replaces only with overwrite=true.`;
  },
  input: z.strictObject({
    url: z.string().max(4000).describe('https URL'),
    path: z.string().describe('Destination, e.g. "Clippings/a.pdf"'),
    overwrite: z.boolean().default(false).describe('May replace a file'),
    expected_hash: z.string().optional().describe('Hash of the file it replaces'),
  }),
  output: z.object({
    path: z.string().describe('Written'),
    created: z.boolean().describe('False: replaced'),
    size: z.number().int().describe('Bytes'),
    content_hash: z.string().describe('sha256'),
    mime: z.string().describe('MIME type'),
    final_url: z.string().describe('After redirects'),
    redirects: z.array(z.string()).describe('Redirects followed'),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  async handler(args, ctx) {
    const deps = ctx.deps;
    const dest = checkDestination(deps, ctx.vault, args.path, args.overwrite, args.expected_hash);
    const s = importSettings(deps.settings());
    const hooks = deps.services.testOnlyNetAllow;
    let got;
    try {
      got = await safeFetch(args.url, {
        maxBytes: landingCap(deps.settings()),
        timeoutMs: s.importTimeoutS * 1000,
        allowHttp: s.importAllowHttp,
        userAgent: `vault-mcp-server/${deps.version}`,
        signal: ctx.signal,
        ...(hooks?.allow ? { testAllow: hooks.allow } : {}),
        ...(hooks?.resolve ? { resolve: hooks.resolve } : {}),
      });
    } catch (e) {
      if (!(e instanceof FetchError)) throw e;
      const code = e.reason === 'invalid_url' ? 'invalid_argument' : e.reason;
      refuse(code, `${e.message} Nothing was written.`, e.details);
    }
    const r = await land(deps, ctx.caller.keyName, dest, got.bytes);
    const ct = (got.contentType ?? '').split(';')[0].trim().toLowerCase();
    const mime = ct && ct !== 'application/octet-stream' && /^[\w.+-]+\/[\w.+-]+$/.test(ct) ? ct : mimeOf(dest.path);
    const sha = r.content_hash.slice('sha256:'.length);
    return {
      structured: { path: dest.path, created: r.created, size: r.size, content_hash: r.content_hash, mime, final_url: got.finalUrl, redirects: got.redirects },
      text: `${r.created ? 'Imported' : 'Replaced'} ${dest.path} (${r.size} bytes, ${mime}) from ${got.finalUrl}${got.redirects.length ? ` after ${got.redirects.length} redirect(s)` : ''}\nsha256: ${sha}`,
    };
  },
});

export const importTools = [importFromUrl];
