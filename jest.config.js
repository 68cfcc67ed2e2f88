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
    // hyparquet(-writer), the Parquet writer, ship ES modules only: Node requires them as they are, Jest 29 needs them as CommonJS.
    '/node_modules/hyparquet(-writer)?/.+\\.js$': ['ts-jest', { diagnostics: false, tsconfig: { allowJs: true, module: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!hyparquet(-writer)?/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  coveragePathIgnorePatterns: ['/node_modules/', '/generated/'],
  testTimeout: 30000,
};
