// The name of Obsidian's per-vault config folder when nothing says otherwise. In the app the plugin
// always uses Vault#configDir (a user can rename the folder); only headless use, which has no Vault,
// falls back to this default (NodeHost's configDir option overrides it).
export const DEFAULT_CONFIG_DIR = '.obsidian';
