/** Jest runs the TypeScript sources through ts-jest; `ideact` resolves to src/ so tests see the public API. */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
  },
  moduleNameMapper: {
    '^ideact$': '<rootDir>/src/index.ts',
    '^ideact/testing$': '<rootDir>/src/testing/index.ts',
  },
  setupFiles: ['reflect-metadata'],
  testTimeout: 30000,
};
