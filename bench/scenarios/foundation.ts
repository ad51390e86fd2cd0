import express from 'express';
import type { AddressInfo } from 'node:net';
import { CLI } from '../../core/audit/audit.ts';
import { measureHttp, type Scenario } from '../harness.ts';

/** A trivial action through the whole stack (express, logging, admin-ajax dispatch, a plugin filter) vs bare express. */
export const foundation: Scenario = {
  name: 'foundation',
  description: 'trivial plugin action through the full middleware and hook chain vs a bare express route',
  async run(env) {
    const db = await env.database();
    const kernel = await env.kernel(db.url);
    const bare = express();
    bare.get('/noop', (_req, res) => {
      res.json({ success: true, data: { ok: true, filtered: true } });
    });
    const server = bare.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      await kernel.plugins.activate('bench-noop', CLI);
      const ours = await measureHttp({ url: `${kernel.url}/wp-admin/admin-ajax.php?action=bench_noop` }, env);
      const baseline = await measureHttp({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/noop` }, env);
      return [{ scenario: 'GET admin-ajax bench_noop', ours, baseline, baselineName: 'bare express' }];
    } finally {
      server.close();
      await kernel.stop();
      await db.close();
    }
  },
};
