// Obsidian's Events/EventRef: handlers are called synchronously, in registration order, with ctx.
export interface EventRef {
  e: Events;
  name: string;
  fn: (...data: unknown[]) => unknown;
  ctx?: unknown;
}

export class Events {
  private readonly _handlers = new Map<string, EventRef[]>();

  on(name: string, callback: (...data: any[]) => any, ctx?: any): EventRef {
    const ref: EventRef = { e: this, name, fn: callback, ctx };
    const list = this._handlers.get(name) ?? [];
    list.push(ref);
    this._handlers.set(name, list);
    return ref;
  }

  off(name: string, callback: (...data: any[]) => any): void {
    const list = this._handlers.get(name);
    if (list) this._handlers.set(name, list.filter((r) => r.fn !== callback));
  }

  offref(ref: EventRef): void {
    const list = this._handlers.get(ref.name);
    if (list) this._handlers.set(ref.name, list.filter((r) => r !== ref));
  }

  trigger(name: string, ...data: unknown[]): void {
    for (const ref of [...(this._handlers.get(name) ?? [])]) this.tryTrigger(ref, data);
  }

  tryTrigger(ref: EventRef, args: unknown[]): void {
    try {
      ref.fn.apply(ref.ctx, args);
    } catch (e) {
      // The app logs a listener's exception and carries on with the others.
      console.error(e);
    }
  }

  /** Test helper: how many handlers are registered (to prove they die with the plugin). */
  listenerCount(name?: string): number {
    if (name) return this._handlers.get(name)?.length ?? 0;
    let n = 0;
    for (const l of this._handlers.values()) n += l.length;
    return n;
  }
}
