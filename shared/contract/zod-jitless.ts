import { z } from 'zod';

/**
 * Imported first by every browser entry (src/web/main.tsx, src/addin/*.ts): the pages run under
 * a Content-Security-Policy without 'unsafe-eval' (server/core/security-headers.ts). Zod would
 * otherwise probe `new Function` to compile fast parsers; the probe fails harmlessly but the
 * browser reports it as a securitypolicyviolation. Jitless parsing is the same validation.
 */
z.config({ jitless: true });
