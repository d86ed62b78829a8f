// The fake `obsidian` module: only what src/ uses, behaving like the app (see ../README.md for what
// it cannot prove). Tests hand this namespace to the built main.js as its require('obsidian').
export { Events, type EventRef } from './events.js';
export { FakeElement } from './dom.js';
export { TAbstractFile, TFile, TFolder, type FileStats } from './files.js';
export { FileSystemAdapter } from './adapter.js';
export { Vault, type VaultConfig } from './vault.js';
export { MetadataCache, type CachedMetadata, type MetadataCacheOptions } from './metadataCache.js';
export { FileManager } from './fileManager.js';
export { Component, Plugin, PluginSettingTab, SettingTab, type PluginManifest, type Command } from './plugin.js';
export { Setting, BaseComponent, ValueComponent, ToggleComponent, TextComponent, TextAreaComponent, DropdownComponent, ButtonComponent, ExtraButtonComponent, SecretComponent, Notice, notices } from './setting.js';
export { App, Workspace, type AppOptions } from './app.js';
export { SecretStorage } from './secretStorage.js';
export { ItemView, WorkspaceLeaf } from './view.js';
export { normalizePath, Platform, requestUrl, type RequestUrlParam } from './util.js';

// The renderer's `window`: the plugin's in-app code uses window.setTimeout & co. (the app's
// popout-safe timers). Only the timers, so libraries that sniff `window` for a browser are unaffected.
const g = globalThis as { window?: unknown };
g.window ??= { setTimeout, clearTimeout, setInterval, clearInterval };
