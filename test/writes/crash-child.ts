// Child process for crash.test.ts: rewrites large notes in a loop through the NodeHost writer (and
// creates new ones) until it is killed. Prints "ack <path> <version>" after each write returned.
import { NodeHost } from '../../src/host/node/nodeHost.js';
import { noteVersion } from './crash-gen.js';

const [vault, round] = process.argv.slice(2);
const host = new NodeHost(vault, { watch: false, dataDir: `${vault}/.data` });
await host.ready();
const notes = host.files().filter((f) => f.path.startsWith('big-')).map((f) => f.path).sort();
for (let i = 0; ; i++) {
  const path = notes[i % notes.length];
  let v = 0;
  await host.writer.process(path, (bytes) => {
    const m = /^v=(\d+)\n/.exec(Buffer.from(bytes.subarray(0, 32)).toString('utf8'));
    v = Number(m![1]) + 1;
    return noteVersion(path, v);
  });
  process.stdout.write(`ack ${path} ${v}\n`);
  if (i % 3 === 2) {
    const p = `new-${round}-${i}.md`;
    await host.writer.create(p, noteVersion(p, 1));
    process.stdout.write(`ack ${p} 1\n`);
  }
}
