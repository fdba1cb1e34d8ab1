import { z } from 'zod';
import { SecurityLevelSchema } from './deliveries';
import { FORM_SUBMIT_E2E_SHAPE, PUBLIC_FORM_E2E_SHAPE } from './form-e2e';
import { DEFAULT_FORM_ADMIN, FormAdminSchema, FormAppearanceSchema } from './form-admin';
import { CONDITION_SHAPE, NUMBER_RATING_SHAPE } from './form-conditions';
import { FIELD_PAGE_SHAPE, FORM_PAGES_ANSWER_SHAPE, FORM_PAGES_SHAPE } from './form-pages';
import { LanguageSchema } from './user';
import { PUBLIC_FORM_LAYOUT_SHAPE } from './form-layout';
import { DEFAULT_FORM_FOOTER, FORM_FOOTER_ANSWER_SHAPE, FORM_FOOTER_SHAPE } from './form-footer';

/**
 * Web forms (SecuForms; SPEC §1–§6, issue 16 §2). ROLE_SECUFORMS (or ROLE_ADMIN) configures forms;
 * anyone with the link fills one in on the public page (`/form/{formUuid}`). A submission is an
 * ordinary delivery from the form's sender account to its recipients, made through the same
 * limited submit session the submit box uses (the client uploads with the delivery calls).
 *
 * | Call | Who | What |
 * |---|---|---|
 * | GET /forms | ROLE_SECUFORMS, ROLE_ADMIN | every form, by name |
 * | POST /forms | ROLE_SECUFORMS, ROLE_ADMIN | creates a form (an active one takes an `activeForms` licence) |
 * | GET/PUT/DELETE /forms/{formUuid} | ROLE_SECUFORMS, ROLE_ADMIN | one form: read, replace (fields included), delete |
 * | GET /public-forms/{formId} | public (id or URL slug) | the public page, or its §8 page state |
 * | POST /public-forms/{formId}/submissions | public (signed in for only-authenticated forms) | checks the values → a delivery draft and a session limited to it |
 *
 * Levels 3/4: shared/contract/form-e2e.ts (the browser encrypts files and values).
 */

export const FORM_ROLES = ['ROLE_SECUFORMS', 'ROLE_ADMIN'] as const;

/** The §8 classes of forms (`error` of the answer); generic ones (ValidationException …) besides. */
export const FORM_ERRORS = {
  notFound: 'FormNotFoundException',
  inactive: 'FormInactiveException',
  invalidRecipients: 'FormInvalidRecipientConfigurationException',
  duplicateName: 'FormDuplicateNameException',
  duplicateUrl: 'FormDuplicateUrlException',
  wrongCaptcha: 'WrongCaptchaException',
  fieldInvalid: 'FormFieldValidationException',
} as const;
export type FormError = (typeof FORM_ERRORS)[keyof typeof FORM_ERRORS];

export const FORM_WEB_LINKS = {
  admin: '/forms',
  edit: (formUuid: string) => `/forms/${encodeURIComponent(formUuid)}`,
  public: (formId: string) => `/form/${encodeURIComponent(formId)}`,
};

export const FORM_NAME_MAX = 200;
export const FORM_URL_MAX = 100;
/** The URL slug: lower-case letters, digits and dashes (a trailing path). */
export const FORM_URL_PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
export const FORM_FIELD_NAME_MAX = 200;
export const FORM_FIELDS_MAX = 100;
/** SPEC §5: selection values up to 1000 characters each. */
export const FORM_OPTION_MAX = 1000;
export const FORM_TEXT_VALUE_MAX = 10_000;
export const FORM_DISCLAIMER_MAX = 20_000;
/** A drawn signature (PNG data URL) at most. */
export const FORM_SIGNATURE_MAX = 200_000;
export const FORM_FILE_KB_MAX = 10 * 1024 * 1024;

/** SPEC §3 custom-field types. */
export const CUSTOM_FIELD_TYPES = ['text', 'checkbox', 'radio', 'dropdown', 'file', 'link', 'date', 'signature', 'email', 'userAttribute', 'textTemplate', 'number', 'rating'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];
/** Types that show something but take no value from the submitter. */
export const DISPLAY_ONLY_FIELD_TYPES: readonly CustomFieldType[] = ['link', 'textTemplate'];
/** SPEC §3: defaults from a signed-in user's attribute. */
export const USER_ATTRIBUTES = ['username', 'firstName', 'lastName', 'email', 'position', 'phone', 'company'] as const;

const CUSTOM_FIELD_SHAPE = {
    name: z.string().max(FORM_FIELD_NAME_MAX),
    type: z.enum(CUSTOM_FIELD_TYPES),
    required: z.boolean().default(false),
    hint: z.string().max(1000).default(''),
    /** Default value; for a link its URL, for a text template its text with {field name} placeholders. */
    defaultValue: z.string().max(FORM_TEXT_VALUE_MAX).default(''),
    /** A JavaScript regular expression the whole value must match (text, email). */
    regex: z.string().max(1000).default(''),
    /** Checkbox, radio, dropdown: the values to choose from. */
    options: z.array(z.string().max(FORM_OPTION_MAX)).max(200).default([]),
    /** Text: lines of the text area, 1–10. */
    textAreaSize: z.number().int().nullable().default(null),
    /** File upload: the largest file in kB, and the allowed extensions or MIME types, comma-separated. */
    maxFileSizeKb: z.number().int().nullable().default(null),
    allowedFileTypes: z.string().max(1000).default(''),
    /** Date: earliest and latest day (YYYY-MM-DD), or null. */
    startDate: z.string().max(10).nullable().default(null),
    endDate: z.string().max(10).nullable().default(null),
    /** User attribute: which attribute of a signed-in submitter fills the field. */
    userAttribute: z.enum(USER_ATTRIBUTES).nullable().default(null),
    /** Link: shown as a button. */
    linkAsButton: z.boolean().default(false),
    /** The process page the field is on (./form-pages.ts). */
    ...FIELD_PAGE_SHAPE,
    /** Conditional questions, number and rating settings (./form-conditions.ts). */
    ...CONDITION_SHAPE,
    ...NUMBER_RATING_SHAPE,
};

/** The same shape with every default removed: what the server answers (every key present). */
function answered<S extends Record<string, z.ZodType>>(shape: S): { [K in keyof S]: S[K] extends z.ZodDefault<infer T> ? T : S[K] } {
  return Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, schema instanceof z.ZodDefault ? schema.unwrap() : schema])) as never;
}

/** A custom field as saved (omitted settings take their defaults). */
export const CustomFieldInputSchema = z.object(CUSTOM_FIELD_SHAPE).strict().meta({ id: 'SaveFormCustomField' });
export const CustomFieldSchema = z.object(answered(CUSTOM_FIELD_SHAPE)).meta({ id: 'FormCustomField' });
export type CustomField = z.infer<typeof CustomFieldSchema>;
export type CustomFieldInput = z.input<typeof CustomFieldInputSchema>;

/** Texts per language (SPEC: translations, JSON validated): { de?: {...}, en?: {...}, fr?: {...} }. */
export const FormTranslationsSchema = z.record(z.string(), z.unknown());

const LAYOUT_SHAPE = {
  description: z.string().max(FORM_TEXT_VALUE_MAX).default(''),
  successTitle: z.string().max(FORM_FIELD_NAME_MAX).default(''),
  successMessage: z.string().max(FORM_TEXT_VALUE_MAX).default(''),
  /** After a submission the page goes here (http/https), or stays on the success page. */
  redirectUrl: z.string().max(2000).default(''),
  /** Imprint, privacy and support links at the bottom of the public page (./form-footer.ts). */
  ...FORM_FOOTER_SHAPE,
};
export const FormLayoutInputSchema = z.object(LAYOUT_SHAPE).strict().meta({ id: 'SaveFormLayout' });
export const FormLayoutSchema = z.object({ ...answered(LAYOUT_SHAPE), ...FORM_FOOTER_ANSWER_SHAPE }).meta({ id: 'FormLayout' });
export type FormLayout = z.infer<typeof FormLayoutSchema>;

/** What the administrator saves (POST, PUT: the whole form). */
const FORM_SHAPE = {
    name: z.string().max(FORM_NAME_MAX),
    url: z.string().max(FORM_URL_MAX),
    active: z.boolean().default(false),
    /** Levels 3/4 only when every recipient has E2E activated (form-e2e.ts). */
    securityLevel: SecurityLevelSchema,
    captcha: z.boolean().default(false),
    onlyAuthenticated: z.boolean().default(false),
    mandatoryRecipients: z.array(z.string().max(320)).max(100).default([]),
    optionalRecipients: z.array(z.string().max(320)).max(100).default([]),
    /** The account the delivery is sent from; null = the form's creator. */
    senderEmail: z.string().max(320).nullable().default(null),
    disclaimerEnabled: z.boolean().default(false),
    disclaimerText: z.string().max(FORM_DISCLAIMER_MAX).default(''),
    layout: FormLayoutInputSchema.default({ description: '', successTitle: '', successMessage: '', redirectUrl: '', footer: DEFAULT_FORM_FOOTER }),
    /** The JSON text of the translations tab (validated: an object keyed by de/en/fr). */
    translations: z.string().max(FORM_TEXT_VALUE_MAX * 3).default('{}'),
    customFields: z.array(CustomFieldInputSchema).max(FORM_FIELDS_MAX).default([]),
    /** Users, notifications, subject template, confirmation mail, appearance (./form-admin.ts). */
    admin: FormAdminSchema.default(DEFAULT_FORM_ADMIN),
    /** Process pages (steps) of the public page (./form-pages.ts). */
    ...FORM_PAGES_SHAPE,
};
export const FormInputSchema = z.object(FORM_SHAPE).strict().meta({ id: 'SaveForm' });
export type FormInput = z.input<typeof FormInputSchema>;
export type FormInputParsed = z.infer<typeof FormInputSchema>;

export const FormSchema = z
  .object({
    ...answered(FORM_SHAPE),
    layout: FormLayoutSchema,
    customFields: z.array(CustomFieldSchema),
    ...FORM_PAGES_ANSWER_SHAPE,
    formUuid: z.string(),
    createdBy: z.string(),
    createdAt: z.number(),
    updatedAt: z.number(),
    /** Absolute link of the public page. */
    link: z.string(),
  })
  .meta({ id: 'Form' });
export type Form = z.infer<typeof FormSchema>;

export const FormSummarySchema = z
  .object({ formUuid: z.string(), name: z.string(), url: z.string(), active: z.boolean(), securityLevel: SecurityLevelSchema, updatedAt: z.number(), link: z.string() })
  .meta({ id: 'FormSummary' });
export type FormSummary = z.infer<typeof FormSummarySchema>;

export const FormListSchema = z.object({ items: z.array(FormSummarySchema) }).meta({ id: 'FormList' });
export type FormList = z.infer<typeof FormListSchema>;

export const FormParamsSchema = z.object({ formUuid: z.string().max(64) }).strict();
export const PublicFormParamsSchema = z.object({ formId: z.string().max(FORM_URL_MAX) }).strict();

/** The public page: what the submitter sees (mandatory recipients and the sender stay hidden). */
export const PublicFormSchema = z
  .object({
    formUuid: z.string(),
    name: z.string(),
    securityLevel: SecurityLevelSchema,
    captcha: z.boolean(),
    onlyAuthenticated: z.boolean(),
    optionalRecipients: z.array(z.string()),
    /** Whether the submitter must pick at least one optional recipient (no mandatory ones). */
    recipientChoiceRequired: z.boolean(),
    disclaimerEnabled: z.boolean(),
    disclaimerText: z.string(),
    layout: FormLayoutSchema,
    translations: FormTranslationsSchema,
    customFields: z.array(CustomFieldSchema),
    /** The most bytes one submission's files may hold together (the server's upload limit; above it TransferQuotaExceededException). */
    maxUploadSize: z.number().int(),
    ...PUBLIC_FORM_E2E_SHAPE,
    /** Colours, transparency, dark theme (./form-admin.ts). */
    appearance: FormAppearanceSchema,
    /** Background image and company logo URLs (./form-layout.ts). */
    ...PUBLIC_FORM_LAYOUT_SHAPE,
    ...FORM_PAGES_ANSWER_SHAPE,
  })
  .meta({ id: 'PublicForm' });
export type PublicForm = z.infer<typeof PublicFormSchema>;

/** A file the submitter is about to upload for a file field (checked against the field's limits). */
export const DeclaredFileSchema = z.object({ name: z.string().max(255), size: z.number().int().nonnegative(), type: z.string().max(255).default('') }).strict();
export type DeclaredFile = z.infer<typeof DeclaredFileSchema>;

/** A field's value: text for most types, the chosen values of a checkbox, the files of a file field. */
export const FieldValueSchema = z.union([z.string().max(FORM_SIGNATURE_MAX), z.array(z.string().max(FORM_OPTION_MAX)).max(200), z.array(DeclaredFileSchema).max(100)]);
export type FieldValue = z.infer<typeof FieldValueSchema>;

export const FormSubmitBodySchema = z
  .object({
    /** Values by field name. */
    values: z.record(z.string().max(FORM_FIELD_NAME_MAX), FieldValueSchema),
    chosenRecipients: z.array(z.string().max(320)).max(100).default([]),
    disclaimerAccepted: z.boolean().default(false),
    captchaId: z.string().max(128).optional(),
    captchaAnswer: z.string().max(64).optional(),
    language: LanguageSchema.optional(),
  })
  .strict()
  .meta({ id: 'FormSubmitBody' });
export type FormSubmitBody = z.input<typeof FormSubmitBodySchema>;

/** The started submission: the draft and a bearer token for its delivery calls (as the submit box's start). */
export const FormSubmitResponseSchema = z
  .object({ deliveryUuid: z.string(), sessionToken: z.string(), securityLevel: SecurityLevelSchema, ...FORM_SUBMIT_E2E_SHAPE })
  .meta({ id: 'FormSubmitResponse' });
export type FormSubmitResponse = z.infer<typeof FormSubmitResponseSchema>;
