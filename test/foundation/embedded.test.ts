import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { billing } from '../helpers/cli.ts';
import { freePort, waitFor } from '../../testing/index.ts';
import { FIXTURE_PLUGINS } from '../helpers/kernel.ts';

const BIN = resolve(import.meta.dirname, '../../bin/billing.js');
const dataDir = mkdtempSync(join(tmpdir(), 'billing-embedded-'));
let child: ChildProcess | null = null;

function serve(port: number): ChildProcess {
  return spawn(process.execPath, [BIN, 'serve'], {
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: String(port), BILLING_PLUGIN_DIRS: FIXTURE_PLUGINS, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

const exited = (p: ChildProcess) => new Promise<number | null>((r) => p.once('exit', (code) => r(code)));
const healthy = (port: number) =>
  fetch(`http://127.0.0.1:${port}/healthz`).then(
    (r) => r.status === 200,
    () => false,
  );

afterAll(() => {
  child?.kill('SIGKILL');
});

describe('the embedded database (no DATABASE_URL)', () => {
  it('serves from DATA_DIR, shares it with the CLI, and survives a kill', async () => {
    const port = await freePort();
    child = serve(port);
    await waitFor(() => healthy(port), { timeoutMs: 30000, everyMs: 100, what: 'the server to answer /healthz' });
    expect(existsSync(join(dataDir, 'pgdata'))).toBe(true);

    // the CLI on the same DATA_DIR reaches the running server's database through its socket
    const env = { DATA_DIR: dataDir, DATABASE_URL: '' };
    expect((await billing('', ['plugin', 'activate', 'hello'], env)).code).toBe(0);
    const webhook = () => fetch(`http://127.0.0.1:${port}/wp-admin/admin-ajax.php?action=hello_webhook`, { method: 'POST', body: 'x' });
    await waitFor(async () => (await webhook()).status === 200, { what: 'the running server to take the activation' });

    // killed without warning: the next start finds its data (and clears the dead socket)
    child.kill('SIGKILL');
    await exited(child);
    child = serve(port);
    await waitFor(() => healthy(port), { timeoutMs: 30000, everyMs: 100, what: 'the server to answer /healthz' });
    expect((await webhook()).status).toBe(200);

    // SIGTERM is a graceful stop with exit code 0
    const done = exited(child);
    child.kill('SIGTERM');
    expect(await done).toBe(0);
    child = null;
  });
});
