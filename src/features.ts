// Optional services (search indexes, jobs, audit…) plug in here (what a feature is: src/feature.ts).
// Order matters only for services that use another's (keyword before hybrid).
import type { Feature } from './feature.js';
import { limitsFeature } from './limits/feature.js';
import { auditFeature } from './audit/feature.js';
import { keywordFeature } from './search/feature.js';
import { semanticFeature } from './semantic/feature.js';
import { graphFeature } from './graph/feature.js';
import { changesFeature } from './changes/feature.js';
import { jobsFeature } from './jobs/feature.js';
import { transferFeature } from './transfer/feature.js';
import { gitFeature } from './git/feature.js';
import { freshnessFeature } from './freshness/feature.js';

export const features: Feature[] = [];
features.push(limitsFeature, auditFeature); // first: their middleware sees every call before other features'
features.push(freshnessFeature); // then: the paths a call names are checked against the disk before it runs
features.push(keywordFeature); // before semantic: hybrid search uses it
features.push(semanticFeature);
features.push(jobsFeature); // background jobs: runAsJob / get_job_result (src/jobs/jobs.ts)
features.push(graphFeature, changesFeature); // link graph + task index; change feed (recordOwn for writes)
features.push(transferFeature, gitFeature); // /transfer links (deps.services.transfer + extraRoutes); git history when the vault is a work tree
