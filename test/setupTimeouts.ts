import { scaledMs } from './helpers/deadline';

// Every test's (and hook's) time limit, scaled by the load measured when its file starts
// (test/helpers/deadline.ts): jest.config.js's testTimeout is the idle-machine figure.
jest.setTimeout(scaledMs(60_000));
