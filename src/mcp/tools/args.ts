// Tool arguments whose meaning is the same in every family, defined once so their schema and
// description cannot drift apart (the folder semantics are ScopedVault.folderArg's).
import { z } from 'zod';

/** `folder`: a folder and its sub-folders; "" = root level only; omitted = the whole vault. */
export const folderFilter = z.string().optional().describe('Folder and below; "" = root only');

/** `frontmatter`: equality per key, list properties by membership (semantic/filters.ts notePredicate). */
export const frontmatterFilter = z.record(z.string(), z.unknown()).optional().describe('Property → value (a list: contains)');

/** `cursor`: the previous page's next_cursor. */
export const pageCursor = z.string().optional().describe('next_cursor');
