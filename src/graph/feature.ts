// Registers the link graph (deps.services.graph) and the task index (deps.services.tasks, with an
// index status provider "tasks").
import type { Feature } from '../feature.js';
import type { IndexStatusProvider } from '../services/status.js';
import { GraphService } from './service.js';
import { TaskService } from '../tasks/service.js';

export const graphFeature: Feature = {
  name: 'graph',
  async setup(deps) {
    const graph = new GraphService(deps.host);
    graph.start();
    const tasks = new TaskService(deps.host);
    deps.services.graph = graph;
    deps.services.tasks = tasks;
    const provider: IndexStatusProvider = {
      status: () => {
        const pending = tasks.pending();
        return { name: 'tasks', state: pending > 0 ? 'building' : 'ready', indexed: tasks.notesWithTasks(), pending, detail: 'notes with tasks' };
      },
    };
    const list = deps.services.indexes ?? [];
    list.push(provider);
    deps.services.indexes = list;
    void tasks.start();
    return { stop: async () => { graph.stop(); await tasks.stop(); } };
  },
};
