// A DOM-less element with the slice of Obsidian's HTMLElement helpers the plugin calls
// (createEl/createDiv/createSvg/appendText/empty/setText/addClass/setAttr). Settings record themselves on their element
// so tests can find them by name and drive their components.
import type { Setting } from './setting.js';

export interface ElOptions { cls?: string | string[]; text?: string; attr?: Record<string, string | number | boolean | null> }

export class FakeElement {
  readonly classes = new Set<string>();
  readonly attrs: Record<string, string> = {};
  children: FakeElement[] = [];
  parent: FakeElement | null = null;
  text = '';
  /** Set on a Setting's settingEl. */
  setting?: Setting;

  constructor(readonly tagName: string = 'div', o: ElOptions = {}) {
    if (o.cls) for (const c of Array.isArray(o.cls) ? o.cls : o.cls.split(' ')) if (c) this.classes.add(c);
    if (o.text !== undefined) this.text = o.text;
    for (const [k, v] of Object.entries(o.attr ?? {})) if (v !== null && v !== false) this.attrs[k] = String(v);
  }

  createEl(tag: string, o: ElOptions | string = {}, cb?: (el: FakeElement) => void): FakeElement {
    const el = new FakeElement(tag, typeof o === 'string' ? { cls: o } : o);
    this.appendChild(el);
    cb?.(el);
    return el;
  }

  createDiv(o: ElOptions | string = {}, cb?: (el: FakeElement) => void): FakeElement {
    return this.createEl('div', o, cb);
  }

  createSpan(o: ElOptions | string = {}, cb?: (el: FakeElement) => void): FakeElement {
    return this.createEl('span', o, cb);
  }

  /** Obsidian's createSvg: an SVG element (recorded like any other, tag name kept). */
  createSvg(tag: string, o: ElOptions | string = {}, cb?: (el: FakeElement) => void): FakeElement {
    const el = this.createEl(tag, o, cb);
    el.svg = true;
    return el;
  }

  /** Obsidian's appendText: a text node after the existing children. */
  appendText(t: string): void {
    this.appendChild(new FakeElement('#text', { text: t }));
  }

  /** Form controls (a <select>'s value, its onchange handler) as plain fields. */
  value = '';
  onchange: ((ev?: unknown) => unknown) | null = null;
  svg = false;

  appendChild(el: FakeElement): FakeElement {
    el.parent = this;
    this.children.push(el);
    return el;
  }

  empty(): void {
    for (const c of this.children) c.parent = null;
    this.children = [];
    this.text = '';
  }

  detach(): void {
    if (!this.parent) return;
    this.parent.children = this.parent.children.filter((c) => c !== this);
    this.parent = null;
  }

  remove(): void {
    this.detach();
  }

  setText(t: string): void {
    this.text = t;
  }

  get textContent(): string {
    return this.text + this.children.map((c) => c.textContent).join('');
  }

  addClass(...c: string[]): void { for (const x of c) this.classes.add(x); }
  removeClass(...c: string[]): void { for (const x of c) this.classes.delete(x); }
  hasClass(c: string): boolean { return this.classes.has(c); }
  toggleClass(c: string, on: boolean): void { if (on) this.classes.add(c); else this.classes.delete(c); }
  setAttr(k: string, v: string | number | boolean | null): void { if (v === null || v === false) delete this.attrs[k]; else this.attrs[k] = String(v); }
  getAttr(k: string): string | null { return this.attrs[k] ?? null; }

  /** Depth-first list of every descendant matching `pred`. */
  findAll(pred: (el: FakeElement) => boolean): FakeElement[] {
    const out: FakeElement[] = [];
    const walk = (el: FakeElement) => { for (const c of el.children) { if (pred(c)) out.push(c); walk(c); } };
    walk(this);
    return out;
  }

  /** Every Setting rendered below this element, in order. */
  settings(): Setting[] {
    return this.findAll((el) => !!el.setting).map((el) => el.setting!);
  }
}
