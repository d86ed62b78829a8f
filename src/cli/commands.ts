// Further CLI commands (audit, reindex…) register here by name.
export const extraCommands: Record<string, (argv: string[]) => Promise<void>> = {};
extraCommands.audit = (argv) => import('../audit/cli.js').then((m) => m.auditCommand(argv));
