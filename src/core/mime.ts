import { extname } from './paths.js';

const TYPES: Record<string, string> = {
  md: 'text/markdown', txt: 'text/plain', csv: 'text/csv', tsv: 'text/tab-separated-values', json: 'application/json',
  canvas: 'application/json', base: 'text/yaml', yaml: 'text/yaml', yml: 'text/yaml', html: 'text/html', htm: 'text/html', css: 'text/css',
  js: 'text/javascript', ts: 'text/plain', xml: 'application/xml', svg: 'image/svg+xml', png: 'image/png', jpg: 'image/jpeg',
  jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', bmp: 'image/bmp', avif: 'image/avif', pdf: 'application/pdf',
  mp3: 'audio/mpeg', wav: 'audio/wav', m4a: 'audio/mp4', ogg: 'audio/ogg', flac: 'audio/flac', mp4: 'video/mp4', webm: 'video/webm',
  mov: 'video/quicktime', zip: 'application/zip', docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

export function mimeOf(path: string): string {
  return TYPES[extname(path)] ?? 'application/octet-stream';
}

/** Text when the extension says so, or, for unknown types, when the first 8 KB hold no NUL and decode as UTF-8. */
export function isTextLike(path: string, bytes: Uint8Array): boolean {
  const mime = mimeOf(path);
  if (mime.startsWith('text/') || mime === 'application/json' || mime === 'application/xml' || mime === 'image/svg+xml') return true;
  if (mime !== 'application/octet-stream') return false;
  const head = bytes.subarray(0, 8192);
  if (head.includes(0)) return false;
  try { new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true }); return true; } catch { return false; }
}
