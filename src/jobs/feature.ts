// Registers deps.services.jobs (the JobStore behind runAsJob and get_job_result); stopping the
// runtime aborts jobs still running.
import type { Feature } from '../feature.js';
import { JobStore } from './jobs.js';

export const jobsFeature: Feature = {
  name: 'jobs',
  async setup(deps) {
    const store = new JobStore(() => deps.now());
    deps.services.jobs = store;
    return { stop: async () => store.stop() };
  },
};
