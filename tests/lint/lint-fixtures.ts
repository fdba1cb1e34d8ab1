/**
 * boundaries.test.ts writes throw-away files named `zzlint<pid>…` into server/, shared/, web/ and
 * addin/ (ESLint classifies a file by where it lies), while the other lint tests of the unit
 * project walk the same folders in another worker: those walkers skip them, so a fixture that
 * appears or goes mid-walk cannot fail them.
 */
export const LINT_FIXTURE_PREFIX = 'zzlint';

export const isLintFixture = (name: string): boolean => name.startsWith(LINT_FIXTURE_PREFIX);
