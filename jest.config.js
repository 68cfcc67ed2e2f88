/** Jest runs the TypeScript sources directly (ts-jest, transpile only: `make typecheck` checks types). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests', '<rootDir>/packages/codec/test', '<rootDir>/packages/sandbox/test'],
  // The workspace packages run from their TypeScript sources here, as the rest does (`make build` compiles them for node).
  moduleNameMapper: {
    '^@ops-data-gateway/codec$': '<rootDir>/packages/codec/src/xmlrpc-codec.ts',
    '^@ops-data-gateway/sandbox/(.*)$': '<rootDir>/packages/sandbox/src/$1',
    '^@ops-data-gateway/gateway/(.*)$': '<rootDir>/packages/gateway/$1',
  },
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { diagnostics: false }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  coveragePathIgnorePatterns: ['/node_modules/', '/generated/'],
  testTimeout: 30000,
};
