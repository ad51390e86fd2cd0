// Jest runs in its native ESM mode (MikroORM 7 is ESM-only); @swc/jest strips the types and keeps the
// `.ts` import specifiers, which jest resolves as they are.
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2023' },
      module: { type: 'es6' },
    }],
  },
  testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/core/**/*.test.ts', '<rootDir>/plugins/**/*.test.ts'],
  testTimeout: 60000,
};
