import { THEME_ENDPOINTS } from '@shared/contract/endpoints/theme';
import { THEME_ASSET_PATHS, THEME_ASSETS, THEME_SETTING_KEYS, type ThemeAsset } from '@shared/contract/theme';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { registerEndpoint } from '../core/endpoint-route';
import { routePlugin } from '../core/route-plugin';
import { LOGO_SVG } from '../pages/html';
import { PROFILE_DEFAULTS } from '../settings/defaults';
import { checkThemeAsset, loadThemeAsset, removeThemeAssets, saveThemeAsset, themeOverview } from './theme-assets';

/** Upload bodies are read whole up to this (the per-asset limits are smaller and answered with their figures). */
const UPLOAD_READ_LIMIT = 2 * 1024 * 1024;
/** A year: a versioned URL (`?v=<hash>`) never changes its content. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** An uploaded SVG is shown as an image; opened on its own it must not run anything (defence in depth beside the upload check). */
const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

const VersionQuerySchema = z.object({ v: z.string().max(64).optional() });

/**
 * Logo and favicon (issue 17 §2): the admin calls (ROLE_ADMIN) and the public images under
 * /webui that the shell, the login page, the add-in and the mails load.
 */
export const themeRoutes = routePlugin('kuvert-theme-routes', async (app) => {
  // Raw image bytes, buffered (small); only this plugin's routes accept the type this way.
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: UPLOAD_READ_LIMIT }, (_request, body, done) => done(null, body));

  registerEndpoint(app, THEME_ENDPOINTS.overview, async () => themeOverview(app.db));

  registerEndpoint(
    app,
    THEME_ENDPOINTS.putAsset,
    async (request) => {
      const { asset } = request.params;
      const uploaded = Buffer.isBuffer(request.body) ? new Uint8Array(request.body) : new Uint8Array();
      const { contentType, bytes } = checkThemeAsset(asset, uploaded);
      await saveThemeAsset(app.db, asset, contentType, bytes);
      await app.auditLog.record({ actorUserId: request.user!.id, action: 'theme.asset', subjectUserId: null, details: { asset, contentType, size: bytes.length } });
      return themeOverview(app.db);
    },
    { bodyLimit: UPLOAD_READ_LIMIT },
  );

  registerEndpoint(app, THEME_ENDPOINTS.removeAsset, async (request) => {
    await removeThemeAssets(app.db, [request.params.asset]);
    await app.auditLog.record({ actorUserId: request.user!.id, action: 'theme.asset', subjectUserId: null, details: { asset: request.params.asset, removed: true } });
    return themeOverview(app.db);
  });

  registerEndpoint(app, THEME_ENDPOINTS.reset, async (request) => {
    await app.settings.set(Object.fromEntries(THEME_SETTING_KEYS.map((key) => [key, PROFILE_DEFAULTS[key] ?? null])));
    await removeThemeAssets(app.db, THEME_ASSETS);
    await app.auditLog.record({ actorUserId: request.user!.id, action: 'theme.reset', subjectUserId: null, details: {} });
    return themeOverview(app.db);
  });

  async function serveAsset(asset: ThemeAsset, request: FastifyRequest, reply: FastifyReply) {
    const { v } = VersionQuerySchema.parse(request.query);
    const stored = await loadThemeAsset(app.db, asset);
    const etag = `"${stored ? stored.sha256.slice(0, 32) : 'default'}"`;
    const current = stored ? stored.sha256.startsWith(v ?? '\0') : v === 'default';
    void reply.header('etag', etag).header('cache-control', current ? IMMUTABLE : 'no-cache');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    if (!stored) return reply.type('image/svg+xml').header('content-security-policy', SVG_POLICY).send(LOGO_SVG);
    if (stored.contentType === 'image/svg+xml') void reply.header('content-security-policy', SVG_POLICY);
    return reply.type(stored.contentType).send(Buffer.from(stored.bytes));
  }

  const publicImage = { config: { access: 'public' as const }, schema: { hide: true } };
  app.get(THEME_ASSET_PATHS.logo, publicImage, (request, reply) => serveAsset('logo', request, reply));
  // The legacy name (SPEC §2 "logo and favicon static files"); the type follows the upload.
  app.get('/webui/logo.svg', publicImage, (request, reply) => serveAsset('logo', request, reply));
  // Browsers take an SVG favicon when the content type says so; no binary .ico to keep.
  app.get(THEME_ASSET_PATHS.favicon, publicImage, (request, reply) => serveAsset('favicon', request, reply));
});
