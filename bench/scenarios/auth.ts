import express from 'express';
import type { AddressInfo } from 'node:net';
import { CLI } from '../../core/audit/audit.ts';
import { alternate, measureHttp, type Scenario } from '../harness.ts';

/** Application-password Basic auth on a REST route: its cost next to the same route without credentials, and bare express. */
export const auth: Scenario = {
  name: 'auth',
  description: 'REST route with application-password Basic auth vs the same route unauthenticated vs bare express',
  async run(env) {
    const db = await env.database();
    const kernel = await env.kernel(db.url);
    const bare = express();
    bare.get('/noop', (_req, res) => {
      res.json({ ok: true, user: 0, filtered: true });
    });
    const server = bare.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      await kernel.plugins.activate('bench-noop', CLI);
      const user = await kernel.identity.users.create({ login: 'bench', email: 'bench@example.com', role: 'administrator' }, CLI);
      const { password } = await kernel.identity.appPasswords.create(user, 'bench', CLI);
      const url = `${kernel.url}/wp-json/bench/v1/noop`;
      const authorization = `Basic ${Buffer.from(`bench:${password}`).toString('base64')}`;
      const authed = () => measureHttp({ url, headers: { authorization } }, env);
      const anonymous = () => measureHttp({ url }, env);
      const oneQuery = () => measureHttp({ url: `${kernel.url}/wp-json/bench/v1/one-query` }, env);
      const baseline = () => measureHttp({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/noop` }, env);
      return [
        {
          scenario: 'GET REST route, Basic app password',
          ...(await alternate(authed, anonymous, env)),
          baselineName: 'same route, no credentials',
        },
        {
          scenario: 'GET REST route, Basic app password',
          ...(await alternate(authed, oneQuery, env)),
          baselineName: 'no credentials + one indexed query',
        },
        { scenario: 'GET REST route, Basic app password', ...(await alternate(authed, baseline, env)), baselineName: 'bare express' },
      ];
    } finally {
      server.close();
      await kernel.stop();
      await db.close();
    }
  },
};
