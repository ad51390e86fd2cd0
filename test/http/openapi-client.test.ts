import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Kernel } from '../../core/kernel.ts';
import { useService, type TestUser } from '../../testing/index.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CLIENT = join(ROOT, 'docs/examples/billing-client.ts');

const svc = useService();
let k: Kernel;
let admin: TestUser;
let dir: string;

function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((res) => {
    execFile(process.execPath, args, { cwd: dir, env: { PATH: process.env.PATH, ...env } }, (err, stdout, stderr) =>
      res({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** tsc, strict, on the given files of `dir` (with Node's types from this repository). */
function tsc(...files: string[]) {
  return run([
    join(ROOT, 'node_modules/typescript/bin/tsc'),
    '--noEmit',
    '--strict',
    '--target',
    'es2023',
    '--lib',
    'es2023',
    '--module',
    'nodenext',
    '--moduleResolution',
    'nodenext',
    '--allowImportingTsExtensions',
    '--skipLibCheck',
    '--typeRoots',
    join(ROOT, 'node_modules/@types'),
    '--types',
    'node',
    ...files,
  ]);
}

beforeAll(async () => {
  k = svc.kernel;
  admin = await svc.makeUser('boss', 'administrator');
  dir = mkdtempSync(join(tmpdir(), 'billing-openapi-client-'));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a client generated with openapi-typescript (docs/examples/billing-client.ts)', () => {
  it('gets its types from the live document, with credentials, and compiles and runs against them', async () => {
    // openapi-typescript reads through Redocly's resolver, whose config sends the credentials (docs/api.md)
    writeFileSync(
      join(dir, 'redocly.yaml'),
      [
        'resolve:',
        '  http:',
        '    headers:',
        `      - matches: ${k.url}/**`,
        '        name: Authorization',
        '        envVariable: BILLING_AUTHORIZATION',
        '',
      ].join('\n'),
    );
    const generated = await run(
      [
        join(ROOT, 'node_modules/openapi-typescript/bin/cli.js'),
        `${k.url}/wp-json/billing/v1/openapi.json`,
        '--redocly',
        join(dir, 'redocly.yaml'),
        '-o',
        join(dir, 'billing-api.d.ts'),
      ],
      { BILLING_AUTHORIZATION: admin.authorization },
    );
    expect(generated).toMatchObject({ code: 0 });
    const types = readFileSync(join(dir, 'billing-api.d.ts'), 'utf8');
    expect(types).toContain('"/billing/v1/invoices": {');
    expect(types).toContain('"credit-note": {');

    copyFileSync(CLIENT, join(dir, 'billing-client.ts'));
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    const compiled = await tsc('billing-client.ts');
    expect(compiled.stdout + compiled.stderr).toBe('');
    expect(compiled.code).toBe(0);

    // the types say something: a wrong use of them does not compile
    writeFileSync(
      join(dir, 'misuse.ts'),
      [
        "import type { components, paths } from './billing-api.d.ts';",
        "export const due: components['schemas']['invoice']['totals']['due'] = 'ten';",
        "export const body: paths['/billing/v1/invoices']['post']['requestBody']['content']['application/json'] = { customer_name: 'x' };",
        '',
      ].join('\n'),
    );
    const misuse = await tsc('misuse.ts');
    expect(misuse.code).not.toBe(0);
    expect(misuse.stdout).toMatch(/misuse\.ts\(2,.*Type 'string' is not assignable to type 'number'/);
    expect(misuse.stdout).toMatch(/misuse\.ts\(3,.*Property 'items' is missing/);

    const ran = await run([join(dir, 'billing-client.ts')], {
      BILLING_URL: k.url,
      BILLING_USER: admin.login,
      BILLING_APP_PASSWORD: admin.appPassword,
    });
    expect(ran.stderr.replace(/^.*ExperimentalWarning.*\n|^.*--trace-warnings.*\n/gm, '')).toBe('');
    expect(JSON.parse(ran.stdout)).toEqual({ created: expect.any(String), paid: 60, due: 300, total: 1, first: [expect.any(String)] });
  });
});
