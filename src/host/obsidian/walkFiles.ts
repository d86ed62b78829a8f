// The vault's files one at a time, from the app's folder tree (TFolder.children), for the host's first
// passes at start. vault.getFiles() and getMarkdownFiles() build their whole array in one call (12-31 ms
// at 100k files in the fake, one task of the app's UI thread that no slicing can split); a walk can stop
// between any two files. A folder's children are copied when the walk enters it: the app may edit that
// array in place (the fake does), and an edit while the walk waits would shift the entries after it. Files created,
// moved or deleted meanwhile come as vault events, which the callers apply after their pass.
import type { TAbstractFile, TFile, TFolder } from 'obsidian';

export function* walkFiles(root: TFolder, isFile: (f: TAbstractFile) => f is TFile, isFolder: (f: TAbstractFile) => f is TFolder): Generator<TFile, void, void> {
  const folders: TFolder[] = [root];
  for (let folder = folders.pop(); folder; folder = folders.pop()) {
    for (const child of folder.children.slice()) {
      if (isFile(child)) yield child;
      else if (isFolder(child)) folders.push(child);
    }
  }
}
