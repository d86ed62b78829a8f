// Deterministic note versions for the crash test: version v of a path is always the same bytes,
// large enough that a write takes several syscalls, with CRLF and non-ASCII text in it.
export function noteVersion(path: string, v: number): string {
  const size = 200_000 + ((v * 7919 + path.length * 104729) % 600_000);
  const line = `${path} version ${v} — ünïcödé ✓ line\r\n`;
  return `v=${v}\n` + line.repeat(Math.ceil(size / line.length));
}
