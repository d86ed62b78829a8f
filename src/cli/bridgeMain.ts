// Entry of bridge.cjs, the standalone copy of the stdio bridge shipped beside the plugin's main.js, so
// Claude Desktop can reach the plugin's server without this repository: node bridge.cjs --url … (key in
// VAULT_MCP_KEY or --key-file). `node dist/cli.js bridge` runs the same code.
import { bridgeCommand } from './bridge.js';

void bridgeCommand(process.argv.slice(2));
