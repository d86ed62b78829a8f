// One launch sample, in a fresh process (V8 would otherwise reuse its compilation cache): read and
// evaluate main.js as Obsidian does (CommonJS, require('obsidian') answered by the fake app), then
// the plugin's onload; for the real plugin also the server start after layout-ready (server.js).
// Prints one JSON line. Used by bench/launch.ts.
import Module, { createRequire } from 'node:module';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as fake from '../test/plugin/fake-obsidian/index.js';
import { installPlugin, PLUGIN_DIR } from '../test/plugin/harness.js';
import { copyVault } from '../test/helpers/vault.js';

const kind = process.argv[2] === 'bare' ? 'bare' : 'plugin';
const BARE = `"use strict";var o=require("obsidian");class Bare extends o.Plugin{async onload(){this.addStatusBarItem().setText("bare");this.addCommand({id:"hello",name:"Hello",callback(){}});this.app.workspace.onLayoutReady(()=>{});}}module.exports=Bare;\n`;

const vault = copyVault();
const dir = installPlugin(vault, { port: 0 });
if (kind === 'bare') writeFileSync(join(dir, 'main.js'), BARE);
const file = join(dir, 'main.js');
const ms = (a: bigint, b: bigint) => Number(b - a) / 1e6;

const t0 = process.hrtime.bigint();
const code = readFileSync(file, 'utf8');
const t1 = process.hrtime.bigint();
const m = new Module(file);
m.filename = file;
m.paths = (Module as unknown as { _nodeModulePaths(d: string): string[] })._nodeModulePaths(dir);
const nodeRequire = createRequire(file);
(m as unknown as { require: (id: string) => unknown }).require = (id: string) => (id === 'obsidian' ? fake : nodeRequire(id));
(m as unknown as { _compile(code: string, f: string): void })._compile(code, file);
const t2 = process.hrtime.bigint();
const exported = m.exports as { default?: unknown };
const Cls = (exported.default ?? exported) as new (app: fake.App, manifest: fake.PluginManifest) => { load(): Promise<void>; ready?: Promise<void>; state?: { kind: string }; unload(): unknown; unloaded?: Promise<void> };
const app = new fake.App(vault, { layoutReady: false });
const plugin = new Cls(app, { ...JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')), dir: PLUGIN_DIR });
const t3 = process.hrtime.bigint();
await plugin.load();
const t4 = process.hrtime.bigint();
let serverStartMs: number | null = null;
if (kind === 'plugin') {
  app.finishStartup();
  const t5 = process.hrtime.bigint();
  await plugin.ready;
  serverStartMs = ms(t5, process.hrtime.bigint());
  if (plugin.state?.kind !== 'on') throw new Error(`the server did not start: ${JSON.stringify(plugin.state)}`);
}
plugin.unload();
await plugin.unloaded;
console.log(JSON.stringify({ kind, bytes: code.length, readMs: ms(t0, t1), evalMs: ms(t1, t2), onloadMs: ms(t3, t4), serverStartMs }));
process.exit(0);
