// `serve` flags that map onto settings. Features add rows here so every limit is also a CLI flag.
import type { Settings } from '../core/settings.js';

export interface SettingFlag {
  flag: string; // without the leading --
  key: keyof Settings & string;
  kind: 'int' | 'string' | 'bool' | 'list';
  help: string;
}

export const settingFlags: SettingFlag[] = [
  { flag: 'host', key: 'bindAddress', kind: 'string', help: 'address to bind (default 127.0.0.1; anything else is reachable from other machines)' },
  { flag: 'port', key: 'port', kind: 'int', help: 'port (default 27200; 0 picks a free one)' },
  { flag: 'allowed-hosts', key: 'allowedHosts', kind: 'list', help: 'extra Host header names to accept, comma separated' },
  { flag: 'read-cap', key: 'readCapChars', kind: 'int', help: 'characters one read returns at most (default 40000)' },
  { flag: 'max-file-read', key: 'maxFileReadBytes', kind: 'int', help: 'largest file read_file returns, bytes' },
  { flag: 'max-request', key: 'maxRequestBytes', kind: 'int', help: 'largest request body, bytes' },
  { flag: 'session-idle-minutes', key: 'sessionIdleMinutes', kind: 'int', help: 'close idle MCP sessions after this many minutes' },
  { flag: 'read-only', key: 'readOnly', kind: 'bool', help: 'global read-only mode: no write tools are listed' },
];
