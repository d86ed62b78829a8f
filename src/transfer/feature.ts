// Registers transfer links: the token store (deps.services.transfer) and the /transfer routes, added
// to the HTTP app through deps.services.http.extraRoutes (composed with any routes already there).
import type express from 'express';
import type { Feature } from '../feature.js';
import { TransferStore } from './tokens.js';
import { mountTransferRoutes } from './routes.js';
import type { TransferService } from './tokens.js';

export const transferFeature: Feature = {
  name: 'transfer',
  async setup(deps) {
    const store = new TransferStore(() => deps.now());
    const service: TransferService = {
      store,
      pageUrl() {
        const url = deps.services.serverUrl;
        const s = deps.settings();
        const base = url ? url.replace(/\/mcp$/, '') : `http://127.0.0.1:${s.port}`;
        // A wildcard bind is reachable on loopback; the browser should open that.
        return base.replace(/^http:\/\/(0\.0\.0\.0|\[::\])(?=:)/, 'http://127.0.0.1') + '/transfer';
      },
    };
    deps.services.transfer = service;
    const http = deps.services.http ?? {};
    const before = http.extraRoutes;
    deps.services.http = { ...http, extraRoutes: (app: express.Express) => { before?.(app); mountTransferRoutes(app, deps, store); } };
  },
};
