// Optional services (search indexes, jobs, audit…) plug in here; each gets the shared deps once at
// start and may add services, middleware or index status providers. Order matters only for services
// that use another's (keyword before hybrid).
import type { ServerDeps } from './mcp/deps.js';

export interface FeatureHandle {
  stop?(): Promise<void>;
}

export interface Feature {
  name: string;
  setup(deps: ServerDeps): Promise<FeatureHandle | void>;
}

export const features: Feature[] = [];
