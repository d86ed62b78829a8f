// Setting and its components, recorded instead of drawn: a test finds a Setting by name and calls
// click()/change() on its components, which run the plugin's own callbacks (and await them).
import { FakeElement } from './dom.js';

type Cb<T> = (value: T) => unknown;

export abstract class BaseComponent {
  disabled = false;
  setDisabled(disabled: boolean): this { this.disabled = disabled; return this; }
}

export abstract class ValueComponent<T> extends BaseComponent {
  protected value!: T;
  protected changeCb: Cb<T> | null = null;
  getValue(): T { return this.value; }
  setValue(value: T): this { this.value = value; return this; }
  onChange(cb: Cb<T>): this { this.changeCb = cb; return this; }
  /** Test helper: what a user edit does, a new value then the change callback. */
  async change(value: T): Promise<void> {
    if (this.disabled) throw new Error('component is disabled');
    this.setValue(value);
    await this.changeCb?.(value);
  }
}

export class ToggleComponent extends ValueComponent<boolean> {
  readonly toggleEl = new FakeElement('div', { cls: 'checkbox-container' });
  tooltip = '';
  constructor(_containerEl: FakeElement) { super(); this.value = false; }
  setTooltip(t: string): this { this.tooltip = t; return this; }
}

export class TextComponent extends ValueComponent<string> {
  readonly inputEl = new FakeElement('input');
  placeholder = '';
  constructor(_containerEl: FakeElement) { super(); this.value = ''; }
  setPlaceholder(p: string): this { this.placeholder = p; return this; }
}

export class TextAreaComponent extends TextComponent {}

export class DropdownComponent extends ValueComponent<string> {
  readonly options = new Map<string, string>();
  readonly selectEl = new FakeElement('select');
  constructor(_containerEl: FakeElement) { super(); this.value = ''; }
  addOption(value: string, display: string): this {
    this.options.set(value, display);
    if (this.options.size === 1) this.value = value;
    return this;
  }
  addOptions(o: Record<string, string>): this { for (const [k, v] of Object.entries(o)) this.addOption(k, v); return this; }
  override setValue(value: string): this {
    // A <select> cannot hold a value it has no option for.
    if (this.options.has(value)) this.value = value;
    return this;
  }
  override async change(value: string): Promise<void> {
    if (!this.options.has(value)) throw new Error(`dropdown has no option "${value}" (has ${[...this.options.keys()].join(', ')})`);
    await super.change(value);
  }
}

export class ButtonComponent extends BaseComponent {
  readonly buttonEl = new FakeElement('button');
  text = '';
  cta = false;
  warning = false;
  tooltip = '';
  private clickCb: ((evt: unknown) => unknown) | null = null;
  constructor(_containerEl: FakeElement) { super(); }
  setButtonText(t: string): this { this.text = t; this.buttonEl.setText(t); return this; }
  setCta(): this { this.cta = true; return this; }
  removeCta(): this { this.cta = false; return this; }
  setWarning(): this { this.warning = true; return this; }
  setIcon(_icon: string): this { return this; }
  setTooltip(t: string): this { this.tooltip = t; return this; }
  setClass(c: string): this { this.buttonEl.addClass(c); return this; }
  onClick(cb: (evt: unknown) => unknown): this { this.clickCb = cb; return this; }
  /** Test helper: a user click, awaited. */
  async click(): Promise<void> {
    if (this.disabled) throw new Error(`button "${this.text}" is disabled`);
    await this.clickCb?.({ type: 'click' });
  }
}

export class ExtraButtonComponent extends ButtonComponent {}

/** The app's secret picker (1.11.1; setValue/onChange 1.11.4): its value is a secret's NAME. The
 *  user picks a stored secret or creates one in the app's dialog, which stores it with setSecret. */
export class SecretComponent extends ValueComponent<string> {
  constructor(readonly app: { secretStorage: { setSecret(id: string, v: string): void; listSecrets(): string[] } }, _containerEl: FakeElement) { super(); this.value = ''; }
  /** Test helper: the user picks an existing secret. */
  async pick(name: string): Promise<void> {
    if (!this.app.secretStorage.listSecrets().includes(name)) throw new Error(`no secret "${name}" to pick`);
    await this.change(name);
  }
  /** Test helper: the user creates a secret in the app's dialog (setSecret may throw, as in the app). */
  async create(name: string, secret: string): Promise<void> {
    this.app.secretStorage.setSecret(name, secret);
    await this.change(name);
  }
}

export class Setting {
  readonly settingEl: FakeElement;
  readonly infoEl: FakeElement;
  readonly nameEl: FakeElement;
  readonly descEl: FakeElement;
  readonly controlEl: FakeElement;
  readonly components: BaseComponent[] = [];
  heading = false;

  constructor(containerEl: FakeElement) {
    this.settingEl = containerEl.createDiv({ cls: 'setting-item' });
    this.settingEl.setting = this;
    this.infoEl = this.settingEl.createDiv({ cls: 'setting-item-info' });
    this.nameEl = this.infoEl.createDiv({ cls: 'setting-item-name' });
    this.descEl = this.infoEl.createDiv({ cls: 'setting-item-description' });
    this.controlEl = this.settingEl.createDiv({ cls: 'setting-item-control' });
  }

  get name(): string { return this.nameEl.text; }
  get desc(): string { return this.descEl.text; }

  setName(name: string): this { this.nameEl.setText(name); return this; }
  setDesc(desc: string): this { this.descEl.setText(desc); return this; }
  setClass(cls: string): this { this.settingEl.addClass(cls); return this; }
  setTooltip(_t: string): this { return this; }
  setHeading(): this { this.heading = true; this.settingEl.addClass('setting-item-heading'); return this; }
  setDisabled(d: boolean): this { for (const c of this.components) c.setDisabled(d); return this; }

  private add<C extends BaseComponent>(c: C, cb: (c: C) => unknown): this {
    this.components.push(c);
    cb(c);
    return this;
  }
  addToggle(cb: (c: ToggleComponent) => unknown): this { return this.add(new ToggleComponent(this.controlEl), cb); }
  addText(cb: (c: TextComponent) => unknown): this { return this.add(new TextComponent(this.controlEl), cb); }
  addTextArea(cb: (c: TextAreaComponent) => unknown): this { return this.add(new TextAreaComponent(this.controlEl), cb); }
  addDropdown(cb: (c: DropdownComponent) => unknown): this { return this.add(new DropdownComponent(this.controlEl), cb); }
  addButton(cb: (c: ButtonComponent) => unknown): this { return this.add(new ButtonComponent(this.controlEl), cb); }
  addExtraButton(cb: (c: ExtraButtonComponent) => unknown): this { return this.add(new ExtraButtonComponent(this.controlEl), cb); }
  /** 1.11.0: any component built on the control element (SecretComponent's way into a Setting). */
  addComponent<C extends BaseComponent>(cb: (el: FakeElement) => C): this { this.components.push(cb(this.controlEl)); return this; }

  /** Test helpers. */
  component<C extends BaseComponent>(type: abstract new (...a: any[]) => C, index = 0): C {
    const found = this.components.filter((c): c is C => c instanceof type);
    if (!found[index]) throw new Error(`setting "${this.name}" has no ${type.name} #${index}`);
    return found[index];
  }
  button(text?: string): ButtonComponent {
    const b = this.components.find((c): c is ButtonComponent => c instanceof ButtonComponent && (text === undefined || c.text === text));
    if (!b) throw new Error(`setting "${this.name}" has no button${text ? ` "${text}"` : ''}`);
    return b;
  }
}

/** Every Notice shown, oldest first, for assertions. */
export const notices: { message: string; duration?: number }[] = [];

export class Notice {
  readonly noticeEl = new FakeElement('div', { cls: 'notice' });
  message: string;
  constructor(message: string | { textContent?: string }, duration?: number) {
    this.message = typeof message === 'string' ? message : message.textContent ?? '';
    this.noticeEl.setText(this.message);
    notices.push({ message: this.message, duration });
  }
  setMessage(message: string): this { this.message = message; this.noticeEl.setText(message); return this; }
  hide(): void {}
}
