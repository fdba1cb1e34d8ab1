import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The origin written in the committed manifest.xml (office-addin-debugging's development origin). */
export const MANIFEST_DEV_ORIGIN = 'https://localhost:3000';

/** The committed template at the repository's top level (DESIGN §1). */
export const MANIFEST_TEMPLATE_PATH = fileURLToPath(new URL('../../manifest.xml', import.meta.url));

/** Where the server serves the manifest for its own public URL (README "Outlook add-in"). */
export const MANIFEST_PATH = '/addin/manifest.xml';

/**
 * Rewrites every URL of the manifest from the development origin to `publicUrl` (its origin
 * and any path prefix): the build does it for KUVERT_PUBLIC_URL, the server for its own host.
 */
export function rewriteManifestUrls(xml: string, publicUrl: string): string {
  const base = new URL(publicUrl);
  const origin = base.origin;
  const prefix = base.pathname.replace(/\/+$/, '');
  const xmlSafe = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  // AppDomains hold origins only; every other URL keeps its path under the prefix.
  return xml
    .replace(/<AppDomain>https:\/\/localhost:3000<\/AppDomain>/g, `<AppDomain>${xmlSafe(origin)}</AppDomain>`)
    .replaceAll(`${MANIFEST_DEV_ORIGIN}/`, xmlSafe(`${origin}${prefix}/`));
}

let cachedTemplate: string | undefined;

export function readManifestTemplate(): string {
  cachedTemplate ??= readFileSync(MANIFEST_TEMPLATE_PATH, 'utf8');
  return cachedTemplate;
}
