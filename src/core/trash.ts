// Headless trash names: `.trash/<YYYYMMDD-HHMMSS>-<basename>-<8 hex><.ext>` (UTC). The random part
// and a non-replacing publish mean a trash entry is never overwritten, even within one second.

export const TRASH_DIR = '.trash';

function pad(n: number, w = 2): string {
  return String(n).padStart(w, '0');
}

export function trashStamp(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}-${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

/** `hex8` must be 8 lowercase hex digits (random). The extension stays last so the file still opens. */
export function trashName(path: string, ms: number, hex8: string): string {
  if (!/^[0-9a-f]{8}$/.test(hex8)) throw new Error('trashName: hex8 must be 8 hex digits');
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  const base = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : '';
  return `${TRASH_DIR}/${trashStamp(ms)}-${base}-${hex8}${ext}`;
}
