#!/usr/bin/env node
// The `billing` command. The service needs Node >= 22.17 (MikroORM 7, TypeScript run as it is); when
// started by an older node, hand over to the Node 22 that `npm install` put in node_modules.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 17)) {
  const node22 = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url));
  if (!existsSync(node22)) {
    process.stderr.write('Error: Node >= 22.17 is needed; run npm install first\n');
    process.exit(1);
  }
  const r = spawnSync(node22, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

process.removeAllListeners('warning'); // the type-stripping notice is not news to the user
const { main } = await import('../core/cli/main.ts');
const code = await main(process.argv.slice(2));
// Exit once stdout has taken everything: to a pipe, a large answer (the OpenAPI document) is written
// asynchronously, and exiting at once cut it short.
if (code >= 0) process.stdout.write('', () => process.exit(code));
