// FileManager: renameFile rewrites links in other notes (when "Automatically update internal links"
// is on), trashFile follows the "Deleted files" setting, processFrontMatter edits the YAML block.
import YAML from 'yaml';
import { TAbstractFile, TFile, TFolder } from './files.js';
import type { Vault } from './vault.js';
import type { MetadataCache } from './metadataCache.js';
import type { ReferenceCache, FrontmatterLinkCache } from '../../../src/core/markdown/metadata.js';
import { linkpathOf } from '../../../src/core/markdown/links.js';

interface Ref { ref: ReferenceCache | FrontmatterLinkCache; target: TFile }

const FRONTMATTER = /^---\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

function subpathOf(link: string): string {
  const i = link.indexOf('#');
  return i < 0 ? '' : link.slice(i);
}

export class FileManager {
  constructor(private readonly vault: Vault, private readonly metadataCache: MetadataCache) {}

  private filesUnder(f: TAbstractFile): TFile[] {
    if (f instanceof TFile) return [f];
    return (f as TFolder).children.flatMap((c) => this.filesUnder(c));
  }

  /** Every reference in every note that resolves to one of `targets`, per source note. */
  private referencesTo(targets: Set<TFile>): Map<TFile, Ref[]> {
    const out = new Map<TFile, Ref[]>();
    for (const source of this.vault.getMarkdownFiles()) {
      const cache = this.metadataCache.getFileCache(source);
      if (!cache) continue;
      const refs: Ref[] = [];
      for (const ref of [...(cache.links ?? []), ...(cache.embeds ?? []), ...(cache.frontmatterLinks ?? [])]) {
        const lp = linkpathOf(ref.link);
        if (lp === '') continue; // [[#heading]] keeps pointing at its own note
        const target = this.metadataCache.getFirstLinkpathDest(lp, source.path);
        if (target && targets.has(target)) refs.push({ ref, target });
      }
      if (refs.length) out.set(source, refs);
    }
    return out;
  }

  private newLink(r: Ref, sourcePath: string): string {
    const { ref, target } = r;
    const o = ref.original;
    const embed = o.startsWith('!') ? '!' : '';
    const sub = subpathOf(ref.link);
    if (o.startsWith('[[', embed.length)) {
      const bar = o.indexOf('|');
      const alias = bar >= 0 ? o.slice(bar, -2) : '';
      return `${embed}[[${this.metadataCache.fileToLinktext(target, sourcePath)}${sub}${alias}]]`;
    }
    const close = o.lastIndexOf('](');
    const text = o.slice(embed.length + 1, close);
    const url = this.metadataCache.fileToLinktext(target, sourcePath, false).replace(/ /g, '%20');
    return `${embed}[${text}](${url}${sub})`;
  }

  private rewrite(text: string, refs: Ref[], sourcePath: string): string {
    const positioned = refs.filter((r) => 'position' in r.ref).sort((a, b) => (b.ref as ReferenceCache).position.start.offset - (a.ref as ReferenceCache).position.start.offset);
    for (const r of positioned) {
      const { start, end } = (r.ref as ReferenceCache).position;
      if (text.slice(start.offset, end.offset) !== r.ref.original) continue; // the cache is behind the file
      text = text.slice(0, start.offset) + this.newLink(r, sourcePath) + text.slice(end.offset);
    }
    const m = FRONTMATTER.exec(text);
    if (m) {
      let block = m[0];
      for (const r of refs.filter((x) => !('position' in x.ref))) block = block.replace(r.ref.original, this.newLink(r, sourcePath));
      text = block + text.slice(m[0].length);
    }
    return text;
  }

  async renameFile(file: TAbstractFile, newPath: string): Promise<void> {
    const update = this.vault.getConfig('alwaysUpdateLinks') !== false;
    const refs = update ? this.referencesTo(new Set(this.filesUnder(file))) : new Map<TFile, Ref[]>();
    await this.vault.rename(file, newPath);
    // TFile objects keep their identity across a rename, so sources inside the moved folder work too.
    for (const [source, list] of refs) await this.vault.process(source, (text) => this.rewrite(text, list, source.path));
  }

  async trashFile(file: TAbstractFile): Promise<void> {
    const option = this.vault.getConfig('trashOption');
    if (option === 'none') return this.vault.delete(file, true);
    return this.vault.trash(file, option !== 'local');
  }

  /** Parses the frontmatter, lets `fn` mutate it, writes it back (throws on malformed YAML). */
  async processFrontMatter(file: TFile, fn: (frontmatter: Record<string, any>) => void): Promise<void> {
    await this.vault.process(file, (text) => {
      const m = FRONTMATTER.exec(text);
      const data = (m && m[1] ? YAML.parse(m[1]) : {}) ?? {};
      fn(data);
      const yaml = Object.keys(data).length ? YAML.stringify(data) : '';
      const block = `---\n${yaml}---\n`;
      return m ? block + text.slice(m[0].length) : block + text;
    });
  }

  getNewFileParent(_sourcePath: string): TFolder {
    return this.vault.getRoot();
  }
}
