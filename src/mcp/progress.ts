// notifications/progress for a request that carried `_meta.progressToken` (reindex, build_embeddings,
// summarize report through runAsJob). The protocol requires each notification's `progress` to be
// larger than the last, so updates that would not grow are dropped; an update without a number (a
// phase such as "combining partial summaries", the final "done") completes a known total or, without
// one, counts as one step more. After a total is reached nothing more is sent.
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { ProgressSink } from './contract.js';

type Send = (n: ServerNotification) => Promise<void>;

export function progressSink(token: string | number | undefined, send: Send): ProgressSink | undefined {
  if (token === undefined) return undefined;
  let last = -1;
  let total: number | undefined;
  return (u) => {
    if (u.total !== undefined && Number.isFinite(u.total)) total = u.total;
    // Without a number: finish a known total, else one step on.
    const progress = u.progress ?? (total === undefined ? last + 1 : total);
    if (!(progress > last)) return;
    last = progress;
    const params = { progressToken: token, progress, ...(total !== undefined && total >= progress ? { total } : {}), ...(u.message ? { message: u.message } : {}) };
    // A client that went away just misses the notification.
    send({ method: 'notifications/progress', params }).catch(() => undefined);
  };
}
