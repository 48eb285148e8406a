/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  // A private redis-server when nothing answers on 6379 (README: `npm test` needs only redis-server on PATH).
  globalSetup: '<rootDir>/test/globalSetup.ts',
  globalTeardown: '<rootDir>/test/globalTeardown.ts',
  // Integration tests share one Redis and spawn real processes; run files one at a time in CI-sized boxes.
  maxWorkers: 2,
  // The idle-machine figure: test/setupTimeouts.ts scales it by the measured load (test/helpers/deadline.ts),
  // and files that set their own call jest.setTimeout(scaledMs(...)).
  testTimeout: 60000,
  setupFilesAfterEnv: ['<rootDir>/test/setupTimeouts.ts'],
};
