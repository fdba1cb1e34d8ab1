import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { FORM_LAYOUT_ENDPOINTS } from '@shared/contract/endpoints/form-layout';
import { FORM_BACKGROUND_MAX_BYTES, formBackgroundPath, type FormBackgroundImage, type FormBackgroundType } from '@shared/contract/form-layout';
import type { FastifyInstance } from 'fastify';
import type { Generated, Selectable } from 'kysely';
import { registerEndpoint } from '../core/endpoint-route';
import { HttpError, notFound } from '../core/http-error';
import { requestContext } from '../core/request-context';
import { routePlugin } from '../core/route-plugin';
import { themeAssetUrl, themeOverview } from '../theme/theme-assets';
import { adminOf, assertMayEditForm } from './admin-settings';
import { formByIdOrUrl, formByUuid, type FormRow } from './forms';
import { checkLayoutImage } from './image-header';

/**
 * Layout images of a web form (shared/contract/form-layout.ts): the background image — checked
 * from its bytes (type, size, dimensions), kept in the blob store under
 * `form-layout/<formUuid>/background-<sha256>` (a new upload is a new key, so a visitor's cached
 * copy never shows the wrong image; the old key goes after the row points to the new one) — and
 * the URLs the public page shows (background, and the theme logo when `showCompanyLogo` is on).
 */

/** Migration 0044. */
export interface FormLayoutImagesTable {
  id: Generated<number>;
  form_id: number;
  kind: string;
  blob_key: string;
  content_type: string;
  size: number;
  width: number;
  height: number;
  sha256: string;
  updated_at: number;
}

declare module '../db/schema' {
  interface Database {
    form_layout_images: FormLayoutImagesTable;
  }
}

const BACKGROUND = 'background';
/** Bodies are read whole up to this; the image limit is smaller and answered with its figures (413). */
const UPLOAD_READ_LIMIT = FORM_BACKGROUND_MAX_BYTES + 1024 * 1024;
/** A year for a versioned URL (`?v=<hash>`): its content never changes. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Unversioned: visitors check again after five minutes. */
const SHORT = 'public, max-age=300';

const blobPrefixOf = (formUuid: string) => `form-layout/${formUuid}`;

async function backgroundRow(app: FastifyInstance, formId: number) {
  return app.db.selectFrom('form_layout_images').selectAll().where('form_id', '=', formId).where('kind', '=', BACKGROUND).executeTakeFirst();
}

function toWire(row: Selectable<FormLayoutImagesTable>, formUuid: string): FormBackgroundImage {
  return {
    contentType: row.content_type as FormBackgroundType,
    size: Number(row.size),
    width: row.width,
    height: row.height,
    updatedAt: Number(row.updated_at),
    url: formBackgroundPath(formUuid, row.sha256),
  };
}

export async function backgroundImageOf(app: FastifyInstance, row: Pick<FormRow, 'id' | 'uuid'>): Promise<FormBackgroundImage | null> {
  const image = await backgroundRow(app, row.id);
  return image ? toWire(image, row.uuid) : null;
}

/** Checks and stores the bytes, then points the form's row to them (the previous image's bytes go after). */
export async function saveBackgroundImage(app: FastifyInstance, row: FormRow, bytes: Uint8Array): Promise<FormBackgroundImage> {
  if (bytes.length > FORM_BACKGROUND_MAX_BYTES) {
    throw new HttpError(413, 'PayloadTooLargeException', `The background image may be at most ${FORM_BACKGROUND_MAX_BYTES} bytes`, { maxBytes: FORM_BACKGROUND_MAX_BYTES, size: bytes.length });
  }
  const header = checkLayoutImage(bytes);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const key = `${blobPrefixOf(row.uuid)}/${BACKGROUND}-${sha256}`;
  await app.blobs.put(key, Readable.from([Buffer.from(bytes)]), { expectedSha256: sha256, expectedSize: bytes.length });
  const previous = await backgroundRow(app, row.id);
  const values = { blob_key: key, content_type: header.contentType, size: bytes.length, width: header.width, height: header.height, sha256, updated_at: Date.now() };
  await app.db
    .insertInto('form_layout_images')
    .values({ form_id: row.id, kind: BACKGROUND, ...values })
    .onConflict((oc) => oc.columns(['form_id', 'kind']).doUpdateSet(values))
    .execute();
  if (previous && previous.blob_key !== key) await app.blobs.delete(previous.blob_key);
  return (await backgroundImageOf(app, row))!;
}

export async function removeBackgroundImage(app: FastifyInstance, row: Pick<FormRow, 'id'>): Promise<void> {
  const image = await backgroundRow(app, row.id);
  if (!image) return;
  await app.db.deleteFrom('form_layout_images').where('id', '=', image.id).execute();
  await app.blobs.delete(image.blob_key);
}

/** Every layout image's bytes of a form about to be deleted (its rows go with the form). */
export async function removeLayoutBlobs(app: FastifyInstance, formUuid: string): Promise<void> {
  await app.blobs.deletePrefix(blobPrefixOf(formUuid));
}

/** What the public page adds (PUBLIC_FORM_LAYOUT_SHAPE). */
export async function publicLayoutImages(app: FastifyInstance, row: FormRow): Promise<{ backgroundImageUrl: string | null; logoUrl: string | null }> {
  const background = await backgroundImageOf(app, row);
  const { appearance } = await adminOf(app.db, row);
  return {
    backgroundImageUrl: background?.url ?? null,
    logoUrl: appearance.showCompanyLogo ? themeAssetUrl('logo', (await themeOverview(app.db)).logo) : null,
  };
}

export const formLayoutRoutes = routePlugin('kuvert-form-layout-routes', async (app) => {
  // Raw image bytes, buffered (small); only this plugin's routes accept the type this way.
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: UPLOAD_READ_LIMIT }, (_request, body, done) => done(null, body));

  const editable = async (user: Parameters<typeof assertMayEditForm>[1], formUuid: string) => {
    const row = await formByUuid(app, formUuid);
    await assertMayEditForm(app.db, user, row);
    return row;
  };

  registerEndpoint(app, FORM_LAYOUT_ENDPOINTS.backgroundInfo, async (request) => {
    const row = await editable(requestContext(app, request).user, request.params.formUuid);
    return { backgroundImage: await backgroundImageOf(app, row) };
  });

  registerEndpoint(
    app,
    FORM_LAYOUT_ENDPOINTS.putBackground,
    async (request) => {
      const row = await editable(requestContext(app, request).user, request.params.formUuid);
      const bytes = Buffer.isBuffer(request.body) ? new Uint8Array(request.body) : new Uint8Array();
      return { backgroundImage: await saveBackgroundImage(app, row, bytes) };
    },
    { bodyLimit: UPLOAD_READ_LIMIT },
  );

  registerEndpoint(app, FORM_LAYOUT_ENDPOINTS.removeBackground, async (request) => {
    const row = await editable(requestContext(app, request).user, request.params.formUuid);
    await removeBackgroundImage(app, row);
    return { backgroundImage: null };
  });

  registerEndpoint(app, FORM_LAYOUT_ENDPOINTS.publicBackground, async (request, reply) => {
    const row = await formByIdOrUrl(app, request.params.formId);
    const image = await backgroundRow(app, row.id);
    if (!image) throw notFound('This form has no background image');
    const etag = `"${image.sha256.slice(0, 32)}"`;
    const { v } = request.query;
    const current = v !== undefined && v.length >= 8 && image.sha256.startsWith(v);
    void reply.header('etag', etag).header('cache-control', current ? IMMUTABLE : SHORT).header('x-content-type-options', 'nosniff');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    const stream = await app.blobs.getStream(image.blob_key);
    return reply.type(image.content_type).header('content-length', String(image.size)).send(stream);
  });
});
