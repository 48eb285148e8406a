/**
 * The test matrix (issue 13): the pipeline's integration tests once more against a three-master
 * Redis Cluster (`npm run test:cluster`, PHOTOWIRE_TEST_REDIS=cluster) and against a Ceph RGW
 * bucket (`npm run test:s3`, PHOTOWIRE_TEST_STORAGE=s3). The same test files as `jest` runs: the
 * switch is in test/helpers/testEnv.ts; test/globalSetup.ts starts the services
 * (scripts/services/) unless REDIS_CLUSTER_NODES / S3_ENDPOINT name running ones.
 */
const base = require('./jest.config.js');

const MATRIX = [
  'pipeline.seed',
  'pipeline.images',
  'pipeline.wireImages',
  'pipeline.metadataFirst',
  'faults.kill',
  'batchNumbers',
  'catalogPages',
  'clusters.cli',
  'kills',
  'retention',
  'photoVersions',
  'schedule',
  'watch',
  'server.api',
  'server.retry',
  // caption-only items in chunks (issue 14): MARK_ITEMS and the pipelined kill registrations on a cluster
  'chunks',
  // two worker machines (separate processes and scratch folders) and a kill -9; always on S3
  'machines',
];

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  testMatch: MATRIX.map((name) => `<rootDir>/test/integration/${name}.test.ts`),
  // One file at a time: the services share the box's two cores with the workers under test.
  maxWorkers: 1,
};
