// node:fs for the render page: existsSync answers from the snapshot's list of paths (the semantic
// section checks the model folder); anything else is not available in a browser page and says so.
const existing = (): Set<string> => new Set((globalThis as { __vmcpExisting?: string[] }).__vmcpExisting ?? []);
export const existsSync = (p: string): boolean => existing().has(String(p));
const none = (name: string) => () => { throw new Error(`fs.${name} is not available in the render page`); };
export const statSync = none('statSync');
export const readFileSync = none('readFileSync');
export const readdirSync = none('readdirSync');
export const mkdirSync = none('mkdirSync');
export const writeFileSync = none('writeFileSync');
export const createWriteStream = none('createWriteStream');
export const createReadStream = none('createReadStream');
export const renameSync = none('renameSync');
export const rmSync = none('rmSync');
export const unlinkSync = none('unlinkSync');
export const promises = new Proxy({}, { get: (_t, k) => none(`promises.${String(k)}`) });
export default { existsSync, statSync, readFileSync, readdirSync, mkdirSync, writeFileSync, promises };
