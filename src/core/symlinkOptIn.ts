// The opt-in for symlinks that lead out of the vault (setting symlinkAllowedFolders, CLI
// --symlink-allow): the folders named, cleaned, and the one-line warning both hosts show.

/** Absolute folders, one per entry; blank entries and relative paths (which name nothing) are dropped. */
export function allowedFolders(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.filter((p): p is string => typeof p === 'string').map((p) => p.trim()).filter((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p) || p.startsWith('\\\\'));
}

/** The one-line warning shown while the opt-in names any folder. */
export function symlinkWarning(folders: readonly string[]): string {
  return folders.length
    ? `Symlinks in the vault may lead into ${folders.length === 1 ? 'this folder' : `these ${folders.length} folders`} outside it: every key can read what is there (never write), dot-folders excepted: ${folders.join(', ')}.`
    : '';
}
