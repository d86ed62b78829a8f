// Notes added to a copy of the sample vault for the graph tests: a self-linking orphan, markdown
// links with anchors, embeds, dangling links, a frontmatter link and tasks with uncommon statuses.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function addGraphFixtures(dir: string): void {
  writeFileSync(join(dir, 'Orphan.md'), '# Self heading\n\nNothing links here; only [[#Self heading]] to itself.\n');
  writeFileSync(join(dir, 'Projects/Links.md'), [
    '---', 'related: "[[Welcome]]"', '---',
    '# Links',
    'See [[Welcome#Welcome|the start]] and [md link](<../People/Ada Lovelace.md#Ada Lovelace>).',
    '![](../Attachments/logo.png)',
    'Dangling: [[Nowhere]] and ![[Missing.png]].',
    '## Tasks',
    '- [>] Deferred thing #later',
    '- [ ] Urgent 🔺 📅 2026-12-01 ⏳ 2026-11-25 #garden',
    '',
  ].join('\n'));
}

