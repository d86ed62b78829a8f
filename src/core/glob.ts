/** A file-name glob (* ? [set]) as a case-insensitive, anchored RegExp; other characters are literal. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const j = glob.indexOf(']', i + 1);
      if (j > i + 1) {
        const body = glob.slice(i + 1, j).replace(/\\/g, '\\\\').replace(/^!/, '^');
        re += `[${body}]`;
        i = j;
      } else re += '\\[';
    } else re += c.replace(/[.+^${}()|\\/\]]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'iu');
}
