// The "MCP activity" view: recent tool calls with filters by key, tool and outcome, and a 14-day chart
// of calls per day by key drawn as plain SVG (refusals drawn apart, as a hatched top segment and a
// count). Data comes from the running server's audit log (deps.services.audit) and daily counters
// (deps.services.limits.usage); main.ts registers it with registerView(ACTIVITY_VIEW, …).
import { ItemView, type WorkspaceLeaf } from 'obsidian';
import type { ServerDeps } from '../mcp/tool.js';
import type { AuditEntry, AuditFilter } from '../audit/log.js';
import type { LimitServices } from '../limits/services.js';

export const ACTIVITY_VIEW = 'vault-mcp-activity';
const COLORS = ['#7c6cf0', '#2fa37a', '#e0823d', '#3b8fd9', '#c94f7c', '#8a9a2e', '#5f6b7a', '#b8860b'];

export interface DayBars { day: string; perKey: { key: string; ok: number; refused: number }[] }

/** Pure: the chart's data from the daily counters (oldest day first). */
export function chartData(usage: LimitServices['usage'], days = 14): DayBars[] {
  return usage.history(days).map(({ day, keys }) => ({
    day, perKey: Object.values(keys).map((k) => ({ key: k.name, ok: k.ok, refused: k.refused })),
  }));
}

function svg<K extends keyof SVGElementTagNameMap>(parent: Element, tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const { class: cls, ...attr } = attrs;
  return parent.createSvg(tag, { attr, ...(cls !== undefined ? { cls: String(cls) } : {}) });
}

export function drawChart(parent: HTMLElement, data: DayBars[]): void {
  const keys = [...new Set(data.flatMap((d) => d.perKey.map((k) => k.key)))].sort();
  const color = (k: string) => COLORS[keys.indexOf(k) % COLORS.length];
  const max = Math.max(1, ...data.map((d) => d.perKey.reduce((a, k) => a + k.ok + k.refused, 0)));
  const W = 560, H = 180, pad = 28, bw = (W - pad) / Math.max(1, data.length);
  const root = svg(parent, 'svg', { viewBox: `0 0 ${W} ${H + 30}`, width: '100%', role: 'img', 'aria-label': `Calls per day by key, last ${data.length} days`, class: 'vmcp-chart-svg' });
  const defs = svg(root, 'defs', {});
  const pat = svg(defs, 'pattern', { id: 'vmcp-hatch', width: 4, height: 4, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
  svg(pat, 'rect', { width: 2, height: 4, class: 'vmcp-hatch-line' });
  svg(root, 'text', { x: 0, y: 10, 'font-size': 10, class: 'vmcp-axis' }).setText(String(max));
  data.forEach((d, i) => {
    let y = H;
    const x = pad + i * bw + 2;
    for (const k of [...d.perKey].sort((a, b) => a.key.localeCompare(b.key))) {
      const h = (k.ok / max) * (H - 14);
      y -= h;
      svg(svg(root, 'rect', { x, y, width: bw - 4, height: h, fill: color(k.key), class: 'vmcp-bar', 'data-key': k.key, 'data-day': d.day }), 'title', {}).setText(`${d.day} ${k.key}: ${k.ok} ok`);
    }
    const refused = d.perKey.reduce((a, k) => a + k.refused, 0);
    if (refused) {
      const h = (refused / max) * (H - 14);
      y -= h;
      svg(svg(root, 'rect', { x, y, width: bw - 4, height: h, fill: 'url(#vmcp-hatch)', class: 'vmcp-bar-refused', 'data-day': d.day }), 'title', {}).setText(`${d.day}: ${refused} refused`);
      svg(root, 'text', { x: x + (bw - 4) / 2, y: Math.max(9, y - 2), 'font-size': 8, 'text-anchor': 'middle', class: 'vmcp-refused-count' }).setText(String(refused));
    }
    svg(root, 'text', { x: x + (bw - 4) / 2, y: H + 12, 'font-size': 9, 'text-anchor': 'middle', class: 'vmcp-axis' }).setText(d.day.slice(5));
  });
  const legend = parent.createDiv({ cls: 'vmcp-legend' });
  for (const k of keys) {
    const item = legend.createSpan({ cls: 'vmcp-legend-item' });
    item.createSpan({ text: '■ ', attr: { style: `color:${color(k)}` } });
    item.appendText(`${k} `);
  }
  const refusedTotal = data.reduce((a, d) => a + d.perKey.reduce((b, k) => b + k.refused, 0), 0);
  legend.createSpan({ text: `▨ refused: ${refusedTotal} in 14 days`, cls: 'vmcp-legend-item' });
}

export class ActivityView extends ItemView {
  private filter: AuditFilter = {};
  private off: (() => void)[] = [];
  private timer: number | null = null;

  constructor(leaf: WorkspaceLeaf, private readonly deps: () => ServerDeps | null) {
    super(leaf);
  }

  getViewType(): string { return ACTIVITY_VIEW; }
  getDisplayText(): string { return 'MCP activity'; }
  override getIcon(): string { return 'activity'; }

  override async onOpen(): Promise<void> {
    this.render();
    this.subscribe();
  }

  override async onClose(): Promise<void> {
    for (const f of this.off) f();
    this.off = [];
    if (this.timer !== null) window.clearTimeout(this.timer);
    this.timer = null;
  }

  /** Called by main.ts after the server (re)starts, so the view follows the new runtime. */
  refresh(): void {
    for (const f of this.off) f();
    this.off = [];
    this.subscribe();
    this.render();
  }

  private subscribe(): void {
    const audit = this.deps()?.services.audit;
    if (!audit) return;
    // Re-render at most twice a second however busy the server is.
    this.off.push(audit.onEntry(() => {
      if (this.timer !== null) return;
      this.timer = window.setTimeout(() => { this.timer = null; this.render(); }, 500);
    }));
  }

  private render(): void {
    const el = this.contentEl;
    el.empty();
    el.addClass('vmcp-activity');
    el.createEl('h3', { text: 'MCP activity' });
    const deps = this.deps();
    const audit = deps?.services.audit;
    const limits = deps?.services.limits;
    if (!deps || !audit || !limits) { el.createEl('p', { text: 'The server is off; start it in the plugin settings to see activity.' }); return; }
    drawChart(el.createDiv({ cls: 'vmcp-chart' }), chartData(limits.usage));

    const all = audit.recent(2000);
    const bar = el.createDiv({ cls: 'vmcp-filters' });
    const pick = (label: string, values: string[], key: keyof AuditFilter) => {
      const sel = bar.createEl('select', { cls: 'dropdown', attr: { 'aria-label': label } });
      sel.createEl('option', { text: `${label}: all`, value: '' });
      for (const v of values) sel.createEl('option', { text: v, value: v });
      sel.value = String(this.filter[key] ?? '');
      sel.onchange = () => { (this.filter as Record<string, unknown>)[key] = sel.value || undefined; this.render(); };
    };
    pick('Key', [...new Set(all.map((e) => e.key))].sort(), 'key');
    pick('Tool', [...new Set(all.map((e) => e.tool))].sort(), 'tool');
    pick('Outcome', ['ok', 'refused', ...new Set(all.filter((e) => e.outcome !== 'ok').map((e) => e.outcome))], 'outcome');

    const rows = audit.recent(200, this.filter);
    const table = el.createEl('table', { cls: 'vmcp-calls' });
    const head = table.createEl('tr');
    for (const h of ['Time', 'Key', 'Tool', 'Outcome', 'ms', 'Bytes', 'Arguments']) head.createEl('th', { text: h });
    for (const e of rows) this.row(table, e);
    if (!rows.length) el.createEl('p', { text: 'No calls match.' });
  }

  private row(table: HTMLElement, e: AuditEntry): void {
    const tr = table.createEl('tr', { cls: e.outcome === 'ok' ? 'vmcp-ok' : 'vmcp-refused' });
    tr.createEl('td', { text: new Date(e.t).toLocaleTimeString() });
    tr.createEl('td', { text: e.key });
    tr.createEl('td', { text: e.tool });
    tr.createEl('td', { text: e.outcome });
    tr.createEl('td', { text: String(e.ms) });
    tr.createEl('td', { text: String(e.bytes) });
    tr.createEl('td', { text: e.args, cls: 'vmcp-args' });
  }
}
