// The E2E side of a plain commit (plain/versions.ts SecureCommitHooks), handed to the plain commit
// by the composition (rooms/routes.ts) and the E2E commit (e2e-items.ts).
import type { SecureCommitHooks } from '../plain/versions';
import { promoteE2eContent } from './e2e-file-ops';
import { requireE2eMetadata } from './e2e-rooms';

export const secureCommitHooks: SecureCommitHooks = { requireMetadata: requireE2eMetadata, promoteContent: promoteE2eContent };
