// The outbound deny policy of import_from_url, as pure functions (no DNS, no sockets): which IP
// addresses a fetch may connect to. Only global unicast space passes; private, loopback, link-local,
// CGNAT, multicast, documentation, benchmark, reserved, metadata and translation ranges are refused,
// and addresses that embed an IPv4 address (IPv4-mapped/compatible, NAT64, 6to4) are judged by it.
// Host spellings the URL parser normalises (decimal 2130706433, octal 0177.1, hex 0x7f.1) are parsed
// here too (inet_aton rules), so a spelling that slipped past the parser is still classified.

export interface Verdict {
  allowed: boolean;
  /** Why not (a range name), or 'public'. */
  reason: string;
  /** The canonical address that was judged. */
  address: string;
}

type Range4 = [number, number, string]; // base, prefix length, name

const V4_DENY: Range4[] = [
  [0x00000000, 8, 'this network (0.0.0.0/8)'],
  [0x0a000000, 8, 'private (10.0.0.0/8)'],
  [0x64400000, 10, 'carrier-grade NAT (100.64.0.0/10)'],
  [0x7f000000, 8, 'loopback (127.0.0.0/8)'],
  [0xa9fe0000, 16, 'link-local / cloud metadata (169.254.0.0/16)'],
  [0xac100000, 12, 'private (172.16.0.0/12)'],
  [0xc0000000, 24, 'IETF protocol assignments (192.0.0.0/24)'],
  [0xc0000200, 24, 'documentation (192.0.2.0/24)'],
  [0xc0586300, 24, '6to4 relay anycast (192.88.99.0/24)'],
  [0xc0a80000, 16, 'private (192.168.0.0/16)'],
  [0xc6120000, 15, 'benchmarking (198.18.0.0/15)'],
  [0xc6336400, 24, 'documentation (198.51.100.0/24)'],
  [0xcb007100, 24, 'documentation (203.0.113.0/24)'],
  [0xe0000000, 4, 'multicast (224.0.0.0/4)'],
  [0xf0000000, 4, 'reserved / broadcast (240.0.0.0/4)'],
];

function inRange4(v: number, base: number, bits: number): boolean {
  if (bits === 0) return true;
  const mask = bits === 32 ? 0xffffffff : (0xffffffff << (32 - bits)) >>> 0;
  return ((v & mask) >>> 0) === base;
}

function fmt4(v: number): string {
  return [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join('.');
}

/** One inet_aton part: decimal, 0-prefixed octal or 0x-prefixed hex. */
function part(s: string): number | null {
  if (/^0x[0-9a-f]*$/i.test(s)) return s.length === 2 ? 0 : parseInt(s.slice(2), 16);
  if (/^0[0-7]*$/.test(s)) return parseInt(s, 8);
  if (/^[1-9][0-9]*$/.test(s)) return Number(s);
  return null;
}

/** IPv4 in any inet_aton spelling (a, a.b, a.b.c, a.b.c.d; each part decimal, octal or hex) → 32-bit value. */
export function parseIPv4(s: string): number | null {
  const t = s.endsWith('.') ? s.slice(0, -1) : s;
  const parts = t.split('.');
  if (parts.length < 1 || parts.length > 4 || parts.some((p) => p === '')) return null;
  const nums = parts.map(part);
  if (nums.some((n) => n === null || !Number.isFinite(n))) return null;
  const n = nums as number[];
  const last = n[n.length - 1];
  for (let i = 0; i < n.length - 1; i++) if (n[i] > 255) return null;
  const rest = 4 - (n.length - 1);
  if (last >= 2 ** (8 * rest)) return null;
  let v = 0;
  for (let i = 0; i < n.length - 1; i++) v = v * 256 + n[i];
  return (v * 2 ** (8 * rest) + last) >>> 0;
}

/** IPv6 text (no brackets; a %zone is refused) → 8 groups, or null. Accepts an embedded dotted quad. */
export function parseIPv6(s: string): number[] | null {
  if (s.includes('%')) return null;
  let text = s.toLowerCase();
  const m = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (m) {
    const v = m[2].split('.').map(Number);
    if (v.some((x) => x > 255)) return null;
    text = m[1] + ((v[0] << 8) | v[1]).toString(16) + ':' + ((v[2] << 8) | v[3]).toString(16);
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const grp = (h: string) => (h === '' ? [] : h.split(':'));
  const head = grp(halves[0]);
  const back = halves.length === 2 ? grp(halves[1]) : [];
  if ([...head, ...back].some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  const hex = (a: string[]) => a.map((g) => parseInt(g, 16));
  if (halves.length === 1) return head.length === 8 ? hex(head) : null;
  const fill = 8 - head.length - back.length;
  if (fill < 1) return null;
  return [...hex(head), ...Array<number>(fill).fill(0), ...hex(back)];
}

function judge4(v: number): Verdict {
  const address = fmt4(v);
  for (const [base, bits, name] of V4_DENY) if (inRange4(v, base, bits)) return { allowed: false, reason: name, address };
  return { allowed: true, reason: 'public', address };
}

function fmt6(g: number[]): string {
  return g.map((x) => x.toString(16)).join(':');
}

function judge6(g: number[]): Verdict {
  const address = fmt6(g);
  const v4 = (hi: number, lo: number) => ((hi << 16) | lo) >>> 0;
  const deny = (reason: string): Verdict => ({ allowed: false, reason, address });
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  // Forms that carry an IPv4 address: judged by it (a mapped loopback is loopback).
  if (zeros(5) && g[5] === 0xffff) return { ...judge4(v4(g[6], g[7])), address };
  if (zeros(4) && g[4] === 0xffff && g[5] === 0) return { ...judge4(v4(g[6], g[7])), address }; // ::ffff:0:a.b.c.d (SIIT)
  if (zeros(6)) {
    if (g[6] === 0 && g[7] === 0) return deny('unspecified (::)');
    if (g[6] === 0 && g[7] === 1) return deny('loopback (::1)');
    const j = judge4(v4(g[6], g[7])); // IPv4-compatible (deprecated)
    return j.allowed ? deny('IPv4-compatible IPv6 (::/96, deprecated)') : { ...j, address };
  }
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    const j = judge4(v4(g[6], g[7]));
    return j.allowed ? { allowed: true, reason: 'public (NAT64)', address } : { ...j, reason: `${j.reason} via NAT64`, address };
  }
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return deny('local-use NAT64 (64:ff9b:1::/48)');
  if (g[0] === 0x2002) {
    const j = judge4(v4(g[1], g[2]));
    return j.allowed ? { allowed: true, reason: 'public (6to4)', address } : { ...j, reason: `${j.reason} via 6to4`, address };
  }
  // Only global unicast (2000::/3) is public; then its special sub-ranges.
  if ((g[0] & 0xe000) !== 0x2000) {
    if ((g[0] & 0xfe00) === 0xfc00) return deny('unique local (fc00::/7)');
    if ((g[0] & 0xffc0) === 0xfe80) return deny('link-local (fe80::/10)');
    if ((g[0] & 0xffc0) === 0xfec0) return deny('site-local (fec0::/10)');
    if ((g[0] & 0xff00) === 0xff00) return deny('multicast (ff00::/8)');
    if (g[0] === 0x100 && zeros(4)) return deny('discard (100::/64)');
    return deny('not global unicast (outside 2000::/3)');
  }
  if (g[0] === 0x2001 && g[1] < 0x200) return deny('IETF protocol assignments / Teredo (2001::/23)');
  if (g[0] === 0x2001 && g[1] === 0xdb8) return deny('documentation (2001:db8::/32)');
  if (g[0] === 0x3fff && g[1] < 0x1000) return deny('documentation (3fff::/20)');
  return { allowed: true, reason: 'public', address };
}

/** Judges an IP address (IPv4 in any inet_aton spelling, or IPv6 with or without brackets); null when it is not an IP address. */
export function classifyAddress(raw: string): Verdict | null {
  const s = raw.trim().replace(/^\[(.*)\]$/, '$1');
  if (s.includes(':')) {
    const g = parseIPv6(s);
    return g ? judge6(g) : { allowed: false, reason: 'unparseable IPv6 address', address: s };
  }
  const v = parseIPv4(s);
  return v === null ? null : judge4(v);
}

/** True for a host name that is in fact an IP address in some spelling (so no DNS lookup is needed). */
export function isIpLiteral(host: string): boolean {
  return classifyAddress(host) !== null;
}

/** Host names that never leave the machine whatever DNS says. */
export function isLocalName(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return h === 'localhost' || h.endsWith('.localhost') || h.endsWith('.local') || h.endsWith('.internal') || h === 'metadata' || h === 'metadata.google.internal';
}
