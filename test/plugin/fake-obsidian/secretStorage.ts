// SecretStorage as obsidian.d.ts (1.11.4) defines it: setSecret/getSecret/listSecrets, ids lowercase
// alphanumeric with optional dashes (setSecret throws otherwise), getSecret null when absent. The
// app keeps secrets in the OS keychain, outside every plugin's data.json; here, in memory.
import { Events } from './events.js';

const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export class SecretStorage extends Events {
  private readonly secrets = new Map<string, string>();
  /** Set to make every call throw, as the app does where the OS offers no keychain (a Linux desktop
   *  without a keyring: Electron's safeStorage refuses to encrypt or decrypt). */
  unavailable: string | null = null;

  private check(): void {
    if (this.unavailable) throw new Error(this.unavailable);
  }

  setSecret(id: string, secret: string): void {
    this.check();
    if (!ID.test(id)) throw new Error(`Invalid secret ID "${id}": use lowercase letters, digits and dashes.`);
    this.secrets.set(id, secret);
  }

  getSecret(id: string): string | null {
    this.check();
    return this.secrets.get(id) ?? null;
  }

  listSecrets(): string[] {
    this.check();
    return [...this.secrets.keys()];
  }
}
