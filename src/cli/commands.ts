// Further CLI commands (audit, reindex…) register here by name.
export const extraCommands: Record<string, (argv: string[]) => Promise<void>> = {};
extraCommands.audit = (argv) => import('../audit/cli.js').then((m) => m.auditCommand(argv));
extraCommands.models = (argv) => import('./models.js').then((m) => m.modelsCommand(argv));
extraCommands.bridge = (argv) => import('./bridge.js').then((m) => m.bridgeCommand(argv));
