// The runtime started in-process over a NodeHost (real HTTP on an ephemeral port).
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { NodeHost } from '../../src/host/node/nodeHost.js';
import { KeyStore } from '../../src/services/keyStore.js';
import { withDefaults } from '../../src/settings.js';
import type { Settings } from '../../src/core/settings.js';
import { startRuntime, type Runtime } from '../../src/runtime.js';
import type { Services } from '../../src/mcp/services.js';
import { tempDir } from './vault.js';

export interface TestRuntime {
  rt: Runtime;
  host: NodeHost;
  url: string;
  rwKey: string;
  readKey: string;
  stop(): Promise<void>;
}

export async function startTestRuntime(vault: string, settings: Partial<Settings> = {}, opts: { services?: Services; watch?: boolean } = {}): Promise<TestRuntime> {
  const host = new NodeHost(vault, { dataDir: join(tempDir('vmcp-data-'), 'data'), watch: opts.watch ?? false });
  await host.ready();
  const keys = new KeyStore(host.data);
  const rwKey = `vmcp_test_rw_${randomBytes(8).toString('hex')}`;
  const readKey = `vmcp_test_ro_${randomBytes(8).toString('hex')}`;
  keys.addEphemeral(rwKey, 'test-rw', 'readwrite');
  keys.addEphemeral(readKey, 'test-read', 'read');
  const s = withDefaults({ port: 0, ...settings });
  const rt = await startRuntime({ host, settings: () => s, keys, services: opts.services });
  return { rt, host, url: rt.server.url, rwKey, readKey, stop: async () => { await rt.stop(); await host.close(); } };
}
