// The slice of the `obsidian` module the plugin's UI uses, implemented on the REAL browser DOM, for the
// Chromium render tests and screenshots (bundled in place of 'obsidian' by ui/bundle.ts). The element
// helpers are installed on Node/Element prototypes the way the app installs them; Setting and its
// components build the markup the app builds (setting-item / -info / -name / -description / -control,
// checkbox-container toggles, .dropdown selects, mod-cta / mod-warning buttons), wired to real events,
// so a test can type and click in Chromium and the plugin's own callbacks run. The DOM-less fake in
// test/plugin/fake-obsidian stays the one the Node plugin tests use.

type DomInfo = { cls?: string | string[]; text?: string | DocumentFragment; attr?: Record<string, string | number | boolean | null>; title?: string; value?: string; type?: string; placeholder?: string; href?: string; prepend?: boolean; parent?: Node };
type Cb<T> = (el: T) => void;

const SVG_NS = 'http://www.w3.org/2000/svg';

function classes(c: string | string[] | undefined): string[] {
  return (Array.isArray(c) ? c : (c ?? '').split(' ')).filter(Boolean);
}

function applyInfo(el: Element, o: DomInfo | string | undefined): void {
  const info: DomInfo = typeof o === 'string' ? { cls: o } : o ?? {};
  if (info.cls) el.classList.add(...classes(info.cls));
  if (info.text !== undefined) { if (typeof info.text === 'string') el.textContent = info.text; else el.appendChild(info.text); }
  for (const [k, v] of Object.entries(info.attr ?? {})) if (v !== null && v !== false) el.setAttribute(k, String(v));
  if (info.title !== undefined) el.setAttribute('title', info.title);
  if (info.value !== undefined) (el as HTMLInputElement).value = info.value;
  if (info.type !== undefined) el.setAttribute('type', info.type);
  if (info.placeholder !== undefined) el.setAttribute('placeholder', info.placeholder);
  if (info.href !== undefined) el.setAttribute('href', info.href);
}

function attach(parent: Node, el: Element, o: DomInfo | string | undefined): void {
  const info = typeof o === 'string' ? {} : o ?? {};
  const into = info.parent ?? parent;
  if (info.prepend) into.insertBefore(el, into.firstChild); else into.appendChild(el);
}

/** The app's element helpers (obsidian.d.ts "global" section), on the real prototypes. */
export function installDomHelpers(): void {
  const N = Node.prototype as unknown as Record<string, unknown>;
  const E = Element.prototype as unknown as Record<string, unknown>;
  N.createEl = function (this: Node, tag: string, o?: DomInfo | string, cb?: Cb<HTMLElement>) {
    const el = document.createElement(tag);
    applyInfo(el, o);
    attach(this, el, o);
    cb?.(el);
    return el;
  };
  type WithCreateEl = { createEl(tag: string, o?: DomInfo | string, cb?: Cb<HTMLElement>): HTMLElement };
  N.createDiv = function (this: Node, o?: DomInfo | string, cb?: Cb<HTMLElement>) { return (this as unknown as WithCreateEl).createEl('div', o, cb); };
  N.createSpan = function (this: Node, o?: DomInfo | string, cb?: Cb<HTMLElement>) { return (this as unknown as WithCreateEl).createEl('span', o, cb); };
  N.createSvg = function (this: Node, tag: string, o?: DomInfo | string, cb?: Cb<SVGElement>) {
    const el = document.createElementNS(SVG_NS, tag);
    applyInfo(el, o);
    attach(this, el, o);
    cb?.(el as SVGElement);
    return el;
  };
  N.empty = function (this: Node) { while (this.firstChild) this.removeChild(this.firstChild); };
  N.detach = function (this: Node) { this.parentNode?.removeChild(this); };
  N.appendText = function (this: Node, t: string) { this.appendChild(document.createTextNode(t)); };
  N.setText = function (this: Node, t: string | DocumentFragment) { if (typeof t === 'string') this.textContent = t; else { this.textContent = ''; this.appendChild(t); } };
  E.addClass = function (this: Element, ...c: string[]) { this.classList.add(...c.flatMap((x) => classes(x))); };
  E.addClasses = function (this: Element, c: string[]) { this.classList.add(...c); };
  E.removeClass = function (this: Element, ...c: string[]) { this.classList.remove(...c.flatMap((x) => classes(x))); };
  E.toggleClass = function (this: Element, c: string | string[], on: boolean) { for (const x of classes(c)) this.classList.toggle(x, on); };
  E.hasClass = function (this: Element, c: string) { return this.classList.contains(c); };
  E.setAttr = function (this: Element, k: string, v: string | number | boolean | null) { if (v === null || v === false) this.removeAttribute(k); else this.setAttribute(k, String(v)); };
  E.setAttrs = function (this: Element, o: Record<string, string | number | boolean | null>) { for (const [k, v] of Object.entries(o)) (this as unknown as { setAttr(k: string, v: unknown): void }).setAttr(k, v); };
  E.getAttr = function (this: Element, k: string) { return this.getAttribute(k); };
  E.show = function (this: HTMLElement) { this.style.display = ''; };
  E.hide = function (this: HTMLElement) { this.style.display = 'none'; };
  E.isShown = function (this: HTMLElement) { return this.style.display !== 'none'; };
  (globalThis as unknown as { createDiv: unknown }).createDiv = (o?: DomInfo | string, cb?: Cb<HTMLElement>) => {
    const el = document.createElement('div'); applyInfo(el, o); cb?.(el); return el;
  };
  (globalThis as unknown as { createFragment: unknown }).createFragment = (cb?: Cb<DocumentFragment>) => {
    const f = document.createDocumentFragment(); cb?.(f); return f;
  };
}
installDomHelpers();

// ---- components ----

export abstract class BaseComponent {
  disabled = false;
  setDisabled(disabled: boolean): this { this.disabled = disabled; return this; }
  then(cb: (c: this) => unknown): this { cb(this); return this; }
}

abstract class ValueComponent<T> extends BaseComponent {
  protected changeCb: ((v: T) => unknown) | null = null;
  abstract getValue(): T;
  abstract setValue(v: T): this;
  onChange(cb: (v: T) => unknown): this { this.changeCb = cb; return this; }
  registerOptionListener(_l: Record<string, (v?: T) => T>, _key: string): this { return this; }
}

export class ToggleComponent extends ValueComponent<boolean> {
  readonly toggleEl: HTMLElement;
  private on = false;
  constructor(containerEl: HTMLElement) {
    super();
    this.toggleEl = containerEl.createDiv({ cls: 'checkbox-container' });
    const input = this.toggleEl.createEl('input', { type: 'checkbox', attr: { tabindex: 0 } });
    this.toggleEl.addEventListener('click', (e) => { e.preventDefault(); if (!this.disabled) { this.setValue(!this.on); void this.changeCb?.(this.on); } });
    input.addEventListener('keydown', (e) => { if (e.key === ' ' || e.key === 'Enter') { e.preventDefault(); this.toggleEl.click(); } });
  }
  getValue(): boolean { return this.on; }
  setValue(on: boolean): this { this.on = on; this.toggleEl.toggleClass('is-enabled', on); (this.toggleEl.firstChild as HTMLInputElement).checked = on; return this; }
  override setDisabled(d: boolean): this { super.setDisabled(d); this.toggleEl.toggleClass('is-disabled', d); return this; }
  setTooltip(t: string): this { this.toggleEl.setAttr('aria-label', t); return this; }
  onClick(): void { this.toggleEl.click(); }
}

export class AbstractTextComponent<E extends HTMLInputElement | HTMLTextAreaElement> extends ValueComponent<string> {
  constructor(readonly inputEl: E) {
    super();
    inputEl.addEventListener('input', () => { void this.changeCb?.(inputEl.value); });
  }
  getValue(): string { return this.inputEl.value; }
  setValue(v: string): this { this.inputEl.value = v; return this; }
  setPlaceholder(p: string): this { this.inputEl.placeholder = p; return this; }
  override setDisabled(d: boolean): this { super.setDisabled(d); this.inputEl.disabled = d; return this; }
  onChanged(): void { void this.changeCb?.(this.inputEl.value); }
}

export class TextComponent extends AbstractTextComponent<HTMLInputElement> {
  constructor(containerEl: HTMLElement) {
    super(containerEl.createEl('input', { type: 'text', attr: { spellcheck: 'false' } }));
  }
}

export class TextAreaComponent extends AbstractTextComponent<HTMLTextAreaElement> {
  constructor(containerEl: HTMLElement) {
    super(containerEl.createEl('textarea', { attr: { spellcheck: 'false', rows: 3 } }));
  }
}

export class DropdownComponent extends ValueComponent<string> {
  readonly selectEl: HTMLSelectElement;
  constructor(containerEl: HTMLElement) {
    super();
    this.selectEl = containerEl.createEl('select', { cls: 'dropdown' });
    this.selectEl.addEventListener('change', () => { void this.changeCb?.(this.selectEl.value); });
  }
  addOption(value: string, display: string): this { this.selectEl.createEl('option', { text: display, value }); return this; }
  addOptions(o: Record<string, string>): this { for (const [k, v] of Object.entries(o)) this.addOption(k, v); return this; }
  getValue(): string { return this.selectEl.value; }
  setValue(v: string): this { this.selectEl.value = v; return this; }
  override setDisabled(d: boolean): this { super.setDisabled(d); this.selectEl.disabled = d; return this; }
}

export class ButtonComponent extends BaseComponent {
  readonly buttonEl: HTMLButtonElement;
  constructor(containerEl: HTMLElement) {
    super();
    this.buttonEl = containerEl.createEl('button');
  }
  setButtonText(t: string): this { this.buttonEl.setText(t); return this; }
  setCta(): this { this.buttonEl.addClass('mod-cta'); return this; }
  removeCta(): this { this.buttonEl.removeClass('mod-cta'); return this; }
  setWarning(): this { this.buttonEl.addClass('mod-warning'); return this; }
  setDestructive(): this { return this.setWarning(); }
  setIcon(icon: string): this { this.buttonEl.setAttr('data-icon', icon); return this; }
  setTooltip(t: string): this { this.buttonEl.setAttr('aria-label', t); return this; }
  setClass(c: string): this { this.buttonEl.addClass(c); return this; }
  override setDisabled(d: boolean): this { super.setDisabled(d); this.buttonEl.disabled = d; this.buttonEl.toggleClass('is-disabled', d); return this; }
  onClick(cb: (evt: MouseEvent) => unknown): this { this.buttonEl.addEventListener('click', (e) => { if (!this.disabled) void cb(e); }); return this; }
}

export class ExtraButtonComponent extends BaseComponent {
  readonly extraSettingsEl: HTMLElement;
  constructor(containerEl: HTMLElement) {
    super();
    this.extraSettingsEl = containerEl.createDiv({ cls: 'clickable-icon extra-setting-button' });
  }
  setIcon(icon: string): this { this.extraSettingsEl.setAttr('data-icon', icon); this.extraSettingsEl.setText('⋯'); return this; }
  setTooltip(t: string): this { this.extraSettingsEl.setAttr('aria-label', t); return this; }
  onClick(cb: () => unknown): this { this.extraSettingsEl.addEventListener('click', () => { if (!this.disabled) void cb(); }); return this; }
}

/** The app's secret picker (1.11.4+): a button naming the linked secret. */
export class SecretComponent extends ValueComponent<string> {
  readonly buttonEl: HTMLButtonElement;
  private value = '';
  constructor(readonly app: unknown, containerEl: HTMLElement) {
    super();
    this.buttonEl = containerEl.createEl('button', { cls: 'secret-component' });
    this.render();
  }
  private render(): void { this.buttonEl.setText(this.value ? `🔑 ${this.value}` : 'Link a secret…'); }
  getValue(): string { return this.value; }
  setValue(v: string): this { this.value = v; this.render(); return this; }
}

export class Setting {
  readonly settingEl: HTMLElement;
  readonly infoEl: HTMLElement;
  readonly nameEl: HTMLElement;
  readonly descEl: HTMLElement;
  readonly controlEl: HTMLElement;
  readonly components: BaseComponent[] = [];

  constructor(containerEl: HTMLElement) {
    this.settingEl = containerEl.createDiv({ cls: 'setting-item' });
    this.infoEl = this.settingEl.createDiv({ cls: 'setting-item-info' });
    this.nameEl = this.infoEl.createDiv({ cls: 'setting-item-name' });
    this.descEl = this.infoEl.createDiv({ cls: 'setting-item-description' });
    this.controlEl = this.settingEl.createDiv({ cls: 'setting-item-control' });
  }

  setName(n: string | DocumentFragment): this { this.nameEl.setText(n); return this; }
  setDesc(d: string | DocumentFragment): this { this.descEl.setText(d); return this; }
  setClass(c: string): this { this.settingEl.addClass(c); return this; }
  setTooltip(t: string): this { this.nameEl.setAttr('aria-label', t); return this; }
  setHeading(): this { this.settingEl.addClass('setting-item-heading'); return this; }
  setDisabled(d: boolean): this { this.settingEl.toggleClass('is-disabled', d); for (const c of this.components) c.setDisabled(d); return this; }
  then(cb: (s: this) => unknown): this { cb(this); return this; }

  private add<C extends BaseComponent>(c: C, cb: (c: C) => unknown): this { this.components.push(c); cb(c); return this; }
  addToggle(cb: (c: ToggleComponent) => unknown): this { return this.add(new ToggleComponent(this.controlEl), cb); }
  addText(cb: (c: TextComponent) => unknown): this { return this.add(new TextComponent(this.controlEl), cb); }
  addTextArea(cb: (c: TextAreaComponent) => unknown): this { return this.add(new TextAreaComponent(this.controlEl), cb); }
  addDropdown(cb: (c: DropdownComponent) => unknown): this { return this.add(new DropdownComponent(this.controlEl), cb); }
  addButton(cb: (c: ButtonComponent) => unknown): this { return this.add(new ButtonComponent(this.controlEl), cb); }
  addExtraButton(cb: (c: ExtraButtonComponent) => unknown): this { return this.add(new ExtraButtonComponent(this.controlEl), cb); }
  addComponent<T extends BaseComponent>(cb: (el: HTMLElement) => T): this { this.components.push(cb(this.controlEl)); return this; }
}

// ---- notices, modals, tabs, views ----

export const notices: string[] = [];

export class Notice {
  readonly noticeEl: HTMLElement;
  constructor(message: string | DocumentFragment, _duration?: number) {
    let box = document.querySelector('.notice-container');
    if (!box) box = document.body.createDiv({ cls: 'notice-container' });
    this.noticeEl = box.createDiv({ cls: 'notice' });
    this.noticeEl.setText(message);
    notices.push(this.noticeEl.textContent ?? '');
  }
  setMessage(m: string | DocumentFragment): this { this.noticeEl.setText(m); return this; }
  hide(): void { this.noticeEl.detach(); }
}

export class Component {
  protected cleanups: (() => unknown)[] = [];
  load(): void { this.onload(); }
  onload(): void {}
  unload(): void { for (const f of this.cleanups.splice(0)) f(); this.onunload(); }
  onunload(): void {}
  register(cb: () => unknown): void { this.cleanups.push(cb); }
  registerInterval(id: number): number { this.register(() => clearInterval(id)); return id; }
  registerEvent(_ref: unknown): void {}
  registerDomEvent(el: EventTarget, type: string, cb: EventListener): void { el.addEventListener(type, cb); this.register(() => el.removeEventListener(type, cb)); }
  addChild<T extends Component>(c: T): T { c.load(); return c; }
}

/** The app's modal markup: .modal-container > .modal-bg + .modal (.modal-close-button, .modal-title, .modal-content). */
export class Modal extends Component {
  readonly containerEl: HTMLElement;
  readonly modalEl: HTMLElement;
  readonly titleEl: HTMLElement;
  readonly contentEl: HTMLElement;
  constructor(readonly app: unknown) {
    super();
    this.containerEl = createDiv({ cls: 'modal-container mod-dim' });
    this.containerEl.createDiv({ cls: 'modal-bg' });
    this.modalEl = this.containerEl.createDiv({ cls: 'modal' });
    this.modalEl.createDiv({ cls: 'modal-close-button' }).addEventListener('click', () => this.close());
    this.titleEl = this.modalEl.createDiv({ cls: 'modal-title' });
    this.contentEl = this.modalEl.createDiv({ cls: 'modal-content' });
  }
  setTitle(t: string): this { this.titleEl.setText(t); return this; }
  setContent(c: string | DocumentFragment): this { this.contentEl.setText(c); return this; }
  open(): void { document.body.appendChild(this.containerEl); this.onOpen(); }
  close(): void { this.onClose(); this.containerEl.detach(); }
  onOpen(): void {}
  onClose(): void {}
}

export abstract class SettingTab {
  app: unknown;
  icon = 'settings';
  readonly containerEl: HTMLElement = createDiv({ cls: 'vertical-tab-content' });
  display(): void {}
  hide(): void {}
}

export abstract class PluginSettingTab extends SettingTab {
  constructor(app: unknown, readonly plugin: unknown) { super(); this.app = app; }
}

export class WorkspaceLeaf {
  view: ItemView | null = null;
  readonly containerEl: HTMLElement = createDiv({ cls: 'workspace-leaf' });
  constructor(readonly app: unknown) {}
  async open(view: ItemView): Promise<void> {
    this.view = view;
    this.containerEl.appendChild(view.containerEl);
    view.load();
    await view.onOpen();
  }
}

/** The app's view markup: .workspace-leaf-content > .view-header (title) + .view-content. */
export abstract class ItemView extends Component {
  readonly app: unknown;
  readonly containerEl: HTMLElement;
  readonly contentEl: HTMLElement;
  constructor(readonly leaf: WorkspaceLeaf) {
    super();
    this.app = leaf.app;
    this.containerEl = createDiv({ cls: 'workspace-leaf-content' });
    const header = this.containerEl.createDiv({ cls: 'view-header' });
    header.createDiv({ cls: 'view-header-title', text: '' });
    this.contentEl = this.containerEl.createDiv({ cls: 'view-content' });
    queueMicrotask(() => { (header.firstChild as HTMLElement).setText(this.getDisplayText()); this.containerEl.setAttr('data-type', this.getViewType()); });
  }
  abstract getViewType(): string;
  abstract getDisplayText(): string;
  getIcon(): string { return ''; }
  async onOpen(): Promise<void> {}
  async onClose(): Promise<void> {}
}

export class Plugin extends Component {
  constructor(readonly app: unknown, readonly manifest: unknown) { super(); }
}

export const Platform = { isDesktop: true, isMobile: false, isDesktopApp: true, isMacOS: false, isWin: false, isLinux: true };

export function normalizePath(p: string): string {
  return p.replace(/[\\/]+/g, '/').replace(/^\/+|\/+$/g, '') || '/';
}

/** The page has no network: a test that reaches for it sees a clear failure. */
export async function requestUrl(): Promise<never> {
  throw new Error('requestUrl: the render page makes no requests');
}

export class TAbstractFile {}
export class TFile extends TAbstractFile {}
export class TFolder extends TAbstractFile {}
