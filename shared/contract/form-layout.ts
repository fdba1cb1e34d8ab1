import { z } from 'zod';

/**
 * Layout images of a web form (issue 16 §2, SPEC §3 form layout "background image, show company
 * logo"). The background image is uploaded as raw bytes (`application/octet-stream`); the server
 * recognises PNG, JPEG and WebP from the first bytes (never from a name or a header), reads the
 * dimensions from the image header and keeps the bytes in the blob store. The public page loads
 * it from `backgroundImageUrl` (versioned by its hash). The company logo is the installation's
 * theme logo (`/webui/logo`, the product's logo when none is uploaded), shown when the appearance
 * switch `showCompanyLogo` is on.
 *
 * | Call | Who | What |
 * |---|---|---|
 * | GET /forms/{formUuid}/background-image/info | the form's creator and editors (ROLE_SECUFORMS), ROLE_ADMIN | the stored image, or null |
 * | PUT /forms/{formUuid}/background-image | likewise | uploads or replaces it (raw bytes) |
 * | DELETE /forms/{formUuid}/background-image | likewise | removes it |
 * | GET /public-forms/{formId}/background-image | public (id or URL slug) | the image bytes |
 */

export const FORM_BACKGROUND_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type FormBackgroundType = (typeof FORM_BACKGROUND_TYPES)[number];
/** 2 MiB: a full-screen photo compressed for the web is far smaller. */
export const FORM_BACKGROUND_MAX_BYTES = 2 * 1024 * 1024;
/** Each side at most this many pixels, and at most FORM_BACKGROUND_MAX_PIXELS in all (no decompression bombs for the visitors' browsers). */
export const FORM_BACKGROUND_MAX_SIDE = 8000;
export const FORM_BACKGROUND_MAX_PIXELS = 40_000_000;

/**
 * The upload's refusals: 400 `ValidationException` with `metadata.reason` (`notAnImage`: the bytes
 * are no PNG, JPEG or WebP image or their header does not parse; `badDimensions`: a side outside
 * 1…FORM_BACKGROUND_MAX_SIDE or too many pixels; `empty`), 413 `PayloadTooLargeException` over
 * FORM_BACKGROUND_MAX_BYTES (`metadata.maxBytes`). The public GET of a form without an image: 404.
 */
export const FORM_LAYOUT_REASONS = { notAnImage: 'notAnImage', badDimensions: 'badDimensions', empty: 'empty' } as const;

export const FormBackgroundImageSchema = z
  .object({
    contentType: z.enum(FORM_BACKGROUND_TYPES),
    size: z.number().int().nonnegative(),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    updatedAt: z.number().int(),
    /** The public URL (absolute path on this server, versioned by the image's hash). */
    url: z.string(),
  })
  .meta({ id: 'FormBackgroundImage' });
export type FormBackgroundImage = z.infer<typeof FormBackgroundImageSchema>;

export const FormBackgroundInfoSchema = z.object({ backgroundImage: FormBackgroundImageSchema.nullable() }).meta({ id: 'FormBackgroundInfo' });
export type FormBackgroundInfo = z.infer<typeof FormBackgroundInfoSchema>;

export const FormLayoutImageParamsSchema = z.object({ formUuid: z.string().max(64) }).strict();
/** The form's id or URL slug (as GET /public-forms/{formId}). */
export const PublicFormImageParamsSchema = z.object({ formId: z.string().max(100) }).strict();
export const FormImageVersionQuerySchema = z.object({ v: z.string().max(64).optional() }).strict();

/** What the public page (GET /public-forms/{formId}) adds: the image URLs, or null. */
export const PUBLIC_FORM_LAYOUT_SHAPE = {
  /** The background image behind the form, or null. */
  backgroundImageUrl: z.string().nullable(),
  /** The company logo above the form (appearance `showCompanyLogo`), or null. */
  logoUrl: z.string().nullable(),
};

/** The public path of a form's background image (under /api/2), versioned by its hash. */
export const formBackgroundPath = (formUuid: string, sha256: string) => `/api/2/public-forms/${encodeURIComponent(formUuid)}/background-image?v=${sha256.slice(0, 16)}`;
