// SecretStorage as obsidian.d.ts (1.11.4) defines it: setSecret/getSecret/listSecrets, ids lowercase
// alphanumeric with optional dashes (setSecret throws otherwise), getSecret null when absent. The
// app keeps secrets in the OS keychain, outside every plugin's data.json; here, in memory.
import { Events } from './events.js';

const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export class SecretStorage extends Events {
  private readonly secrets = new Map<string, string>();

  setSecret(id: string, secret: string): void {
    if (!ID.test(id)) throw new Error(`Invalid secret ID "${id}": use lowercase letters, digits and dashes.`);
    this.secrets.set(id, secret);
  }

  getSecret(id: string): string | null {
    return this.secrets.get(id) ?? null;
  }

  listSecrets(): string[] {
    return [...this.secrets.keys()];
  }
}
