// The graph family (plus get_toc, a read tool that shares its paging): backlinks, outgoing and
// broken links (links.ts), orphans, hubs, neighbourhood and shortest chains (structure.ts), the
// outline (toc.ts) and the one-call dossier (context.ts). Answers come from the link graph (the
// host's resolvedLinks/unresolvedLinks) and metadata; a root-confined key sees only its part of the
// graph (links to paths outside answer like links to nothing).
import { getBacklinks, getBrokenLinks, getLinks } from './links.js';
import { findOrphans, getConnectionPath, getMostLinked, getNeighborhood } from './structure.js';
import { getToc } from './toc.js';
import { getContext } from './context.js';

export const graphTools = [getBacklinks, getLinks, getBrokenLinks, findOrphans, getMostLinked, getNeighborhood, getConnectionPath, getToc, getContext];
