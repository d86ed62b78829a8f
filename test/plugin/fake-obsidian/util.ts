// normalizePath, Platform and requestUrl as the app defines them (desktop).
export function normalizePath(path: string): string {
  path = path.replace(/([\\/])+/g, '/').replace(/(^\/+|\/+$)/g, '');
  if (path === '') path = '/';
  return path.replace(/[\u00A0\u202F]/g, ' ').normalize('NFC');
}

export const Platform = {
  isDesktop: true, isMobile: false, isDesktopApp: true, isMobileApp: false,
  isIosApp: false, isAndroidApp: false, isPhone: false, isTablet: false,
  isMacOS: process.platform === 'darwin', isWin: process.platform === 'win32', isLinux: process.platform === 'linux', isSafari: false,
  resourcePathPrefix: 'app://local/',
};

export interface RequestUrlParam { url: string; method?: string; contentType?: string; body?: string | ArrayBuffer; headers?: Record<string, string>; throw?: boolean }

/** The app's CORS-free fetch; here node's fetch. Throws on status >= 400 unless throw: false. */
export async function requestUrl(req: RequestUrlParam | string) {
  const r = typeof req === 'string' ? { url: req } : req;
  const res = await fetch(r.url, {
    method: r.method ?? 'GET',
    headers: { ...(r.contentType ? { 'content-type': r.contentType } : {}), ...r.headers },
    body: r.body === undefined ? undefined : typeof r.body === "string" ? r.body : new Uint8Array(r.body),
  });
  const buf = await res.arrayBuffer();
  const text = new TextDecoder().decode(buf);
  if (res.status >= 400 && r.throw !== false) throw Object.assign(new Error(`Request failed, status ${res.status}`), { status: res.status });
  return {
    status: res.status, headers: (() => { const h: Record<string, string> = {}; res.headers.forEach((v, k) => { h[k] = v; }); return h; })(), arrayBuffer: buf, text,
    get json() { return JSON.parse(text); },
  };
}
