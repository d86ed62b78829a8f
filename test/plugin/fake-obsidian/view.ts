// Views and leaves: registerView's factory runs when a leaf gets that view type (setViewState);
// open() runs onOpen, close()/detach() run onClose. Only what the activity view needs.
import { Component } from './plugin.js';
import { FakeElement } from './dom.js';
import type { App } from './app.js';

export class WorkspaceLeaf {
  view: ItemView | null = null;
  constructor(readonly app: App, readonly side: 'left' | 'right' | 'main') {}

  async setViewState(state: { type: string; active?: boolean }): Promise<void> {
    const make = this.app.workspace.viewCreators.get(state.type);
    if (!make) throw new Error(`no view registered for "${state.type}"`);
    await this.view?.close();
    this.view = make(this);
    await this.view.open();
  }

  getViewState(): { type: string } {
    return { type: this.view?.getViewType() ?? 'empty' };
  }

  async detach(): Promise<void> {
    await this.view?.close();
    this.view = null;
    this.app.workspace.leaves = this.app.workspace.leaves.filter((l) => l !== this);
  }
}

export abstract class ItemView extends Component {
  readonly app: App;
  readonly containerEl = new FakeElement('div', { cls: 'workspace-leaf-content' });
  readonly contentEl: FakeElement;
  constructor(readonly leaf: WorkspaceLeaf) {
    super();
    this.app = leaf.app;
    this.contentEl = this.containerEl.createDiv({ cls: 'view-content' });
  }
  abstract getViewType(): string;
  abstract getDisplayText(): string;
  getIcon(): string { return ''; }
  onOpen(): unknown { return undefined; }
  onClose(): unknown { return undefined; }
  async open(): Promise<void> { await this.load(); await this.onOpen(); }
  async close(): Promise<void> { await this.onClose(); this.unload(); }
}
