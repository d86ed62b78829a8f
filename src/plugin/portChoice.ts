// Several vaults open at once each run their own server, and all start from the default port. While
// `portAuto` is on (until the user applies a port of their own), a vault whose port is taken moves to
// the next free one and keeps it in its data.json, so each vault has a stable port of its own.
import type { Settings } from '../core/settings.js';

export const PORT_DEFAULTS = { portAuto: true };

export function portAuto(s: Settings): boolean {
  return typeof s.portAuto === 'boolean' ? s.portAuto : PORT_DEFAULTS.portAuto;
}

/** How many ports after a taken one are tried. */
export const PORT_TRIES = 50;
