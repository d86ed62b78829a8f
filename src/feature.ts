// What a feature is (the list is src/features.ts): an optional service that gets the shared deps once
// at start and may add services (typed in src/mcp/services.ts), middleware or index status providers.
import type { ServerDeps } from './mcp/tool.js';

export interface FeatureHandle {
  stop?(): Promise<void>;
}

export interface Feature {
  name: string;
  setup(deps: ServerDeps): Promise<FeatureHandle | void>;
}
