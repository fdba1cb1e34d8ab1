import { z } from 'zod';
import { FORM_NAME_MAX, FORM_URL_MAX, type FormInput } from './forms';

/**
 * Form templates (issue 16 §2, the templates page): the built-in ones, defined here once, and the
 * saved forms the caller may edit. "Create from template" makes a new, inactive form with the
 * template's custom fields, disclaimer, layout and administration texts.
 *
 * | Call | Who | What |
 * |---|---|---|
 * | GET /form-templates | ROLE_SECUFORMS, ROLE_ADMIN | built-in templates, then the caller's forms |
 * | POST /forms/from-template | ROLE_SECUFORMS, ROLE_ADMIN | a new form from a template (built-in id or a form's uuid) with its own name and URL |
 */

/** The templates page of the web client. */
export const FORM_TEMPLATES_LINK = '/forms/templates';

/** What a built-in template fills in (the name, URL and recipients come from the creator). */
export type BuiltInTemplate = Pick<FormInput, 'customFields' | 'disclaimerEnabled' | 'disclaimerText' | 'layout' | 'admin'>;

export const BUILT_IN_FORM_TEMPLATES = {
  contactRequest: {
    customFields: [
      { name: 'Name', type: 'text', required: true, textAreaSize: 1 },
      { name: 'Email', type: 'email', required: true },
      { name: 'Topic', type: 'dropdown', required: true, options: ['Question', 'Offer', 'Complaint'] },
      { name: 'Message', type: 'text', required: true, textAreaSize: 6 },
    ],
    layout: { description: 'Send us your request; we answer by email.', successTitle: 'Thank you', successMessage: 'We have received your request.', redirectUrl: '' },
    admin: { subjectTemplate: 'Contact request: {field:Topic} from {field:Name}', confirmationMailText: 'Thank you for your request. We will answer soon.' },
  },
  documentUpload: {
    customFields: [
      { name: 'Name', type: 'text', required: true, textAreaSize: 1 },
      { name: 'Email', type: 'email', required: true },
      { name: 'Reference', type: 'text', textAreaSize: 1, hint: 'Your file or case number, if you have one' },
      { name: 'Documents', type: 'file', required: true, maxFileSizeKb: 20_480, allowedFileTypes: '.pdf,.jpg,.jpeg,.png,.docx' },
    ],
    layout: { description: 'Upload your documents securely.', successTitle: 'Documents received', successMessage: 'Your documents have been uploaded.', redirectUrl: '' },
    admin: { subjectTemplate: 'Documents from {field:Name} ({date})', confirmationMailText: 'We have received your documents.' },
  },
  applicationWithSignature: {
    customFields: [
      { name: 'First name', type: 'text', required: true, textAreaSize: 1 },
      { name: 'Last name', type: 'text', required: true, textAreaSize: 1 },
      { name: 'Email', type: 'email', required: true },
      { name: 'Date of birth', type: 'date', required: true },
      { name: 'Application', type: 'file', required: true, maxFileSizeKb: 10_240, allowedFileTypes: '.pdf' },
      { name: 'Signature', type: 'signature', required: true },
    ],
    disclaimerEnabled: true,
    disclaimerText: 'I confirm that the information given is correct.',
    layout: { description: 'Fill in your application and sign it.', successTitle: 'Application sent', successMessage: 'Thank you for your application.', redirectUrl: '' },
    admin: { subjectTemplate: 'Application: {field:First name} {field:Last name}', confirmationMailText: 'We have received your application and will be in touch.' },
  },
} as const satisfies Record<string, BuiltInTemplate>;
export type BuiltInTemplateId = keyof typeof BUILT_IN_FORM_TEMPLATES;
export const BUILT_IN_TEMPLATE_IDS = Object.keys(BUILT_IN_FORM_TEMPLATES) as BuiltInTemplateId[];

export const FormTemplateSchema = z
  .object({
    /** A built-in template's id, or a saved form's uuid. */
    id: z.string(),
    kind: z.enum(['builtIn', 'form']),
    /** A saved form's name; for built-in ones the id (the clients show their own text). */
    name: z.string(),
    fieldNames: z.array(z.string()),
  })
  .meta({ id: 'FormTemplate' });
export type FormTemplate = z.infer<typeof FormTemplateSchema>;

export const FormTemplateListSchema = z.object({ items: z.array(FormTemplateSchema) }).meta({ id: 'FormTemplateList' });
export type FormTemplateList = z.infer<typeof FormTemplateListSchema>;

export const FromTemplateBodySchema = z
  .object({ template: z.string().max(64), name: z.string().max(FORM_NAME_MAX), url: z.string().max(FORM_URL_MAX) })
  .strict()
  .meta({ id: 'CreateFormFromTemplate' });
export type FromTemplateBody = z.infer<typeof FromTemplateBodySchema>;
