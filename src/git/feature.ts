// Registers git history (deps.services.git) when the vault folder is a git work tree and git is on
// the PATH; otherwise get_history and get_diff are not listed. Checked once at start.
import type { Feature } from '../feature.js';
import { detectGit } from './git.js';

export const gitFeature: Feature = {
  name: 'git',
  async setup(deps) {
    if (deps.services.git === undefined) {
      const git = await detectGit(deps.host.basePath, deps.services.gitBinary ?? 'git');
      if (git) deps.services.git = git;
    }
  },
};
