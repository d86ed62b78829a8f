// Further CLI commands (audit, reindex…) register here by name.
export const extraCommands: Record<string, (argv: string[]) => Promise<void>> = {};
