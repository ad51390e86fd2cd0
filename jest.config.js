import { availableParallelism } from 'node:os';

// Jest runs in its native ESM mode (MikroORM 7 is ESM-only); @swc/jest strips the types and keeps the
// `.ts` import specifiers, which jest resolves as they are.
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2023' },
        module: { type: 'es6' },
      },
    ],
  },
  testMatch: [
    '<rootDir>/test/**/*.test.ts',
    '<rootDir>/core/**/*.test.ts',
    '<rootDir>/plugins/**/*.test.ts',
    '<rootDir>/testing/**/*.test.ts',
  ],
  testTimeout: 60000,
  // each REST answer a test receives is checked against the served OpenAPI document (docs/api.md)
  setupFilesAfterEnv: ['<rootDir>/test/helpers/install-response-check.ts'],
  // Worker processes, at least two. Jest's default on two cores is one worker, which it runs inside its
  // own process ("in band"): there every test file's module graph (the whole core, express, MikroORM,
  // PGlite's WASM) stays in memory, the heap grew past 1 GB over the suite and each file ran 2-3 times
  // slower than alone. Test files wait on child processes, sockets and timers as much as on the CPU, so
  // two workers pay even on two cores (embedded suite: 3m48s in band, 2m09s with two workers).
  maxWorkers: Math.max(2, availableParallelism() - 1),
  // a worker whose memory has grown past this after a file is replaced by a fresh one
  workerIdleMemoryLimit: '600MB',
};
