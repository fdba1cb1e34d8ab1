import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Same aliases as tsconfig.json "paths"; vitest does not read tsconfig paths by itself.
const alias = {
  '@shared': here('./shared'),
  '@web': here('./web'),
  '@addin': here('./addin'),
  '@server': here('./server'),
  '@locales': here('./locales'),
  '@tests': here('./tests'),
};

// Vitest's default in a run is one worker less than the cores: ONE worker on the 2-core CI machine,
// so the files ran one after another while most of them wait on sockets, databases and clocks.
// Two workers keep both cores busy (each test server has its own temp folder, port and schema).
const WORKERS = 2;

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: ['shared/**/*.test.ts', 'web/**/*.test.{ts,tsx}', 'addin/**/*.test.{ts,tsx}', 'server/**/*.test.ts', 'tests/lint/**/*.test.ts', 'tests/fixtures/**/*.test.ts', 'tests/support/**/*.test.ts', 'tests/bench/**/*.test.ts'],
          environment: 'node',
          maxWorkers: WORKERS,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'server',
          include: ['tests/integration/**/*.test.ts', 'tests/multi-server/**/*.test.ts'],
          environment: 'node',
          maxWorkers: WORKERS,
          // Each file starts its own servers (own temp folder, port, schema) and restores what it
          // changes, so the files of a worker can share loaded modules: the server's ~1,000 modules
          // are then imported once per worker instead of once per file (about a fifth of the suite).
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          // PostgreSQL outages and first starts against real server processes (tests/faults/README.md);
          // PostgreSQL only, on a throw-away cluster the suite starts itself. Run once, by `npm run test:faults`.
          name: 'faults',
          include: ['tests/faults/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Its files each start servers and PostgreSQL: one at a time on a small CI machine.
          fileParallelism: false,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'i18n',
          include: ['tests/i18n/**/*.test.ts'],
          environment: 'node',
        },
      },
    ],
  },
});
