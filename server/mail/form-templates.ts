import type { TemplatesOf } from './template-types';

/** Web forms (issue 16 §2): the submitter's confirmation, with the text of the form's Layout tab. */
export const FORM_TEMPLATES: TemplatesOf<'formConfirmation'> = {
  formConfirmation: {
    de: {
      subject: (d) => `${d.organisation}: Ihre Einsendung „${d.formName}“ ist eingegangen`,
      paragraphs: (d) => [...d.text.split(/\n{2,}/), `Dies ist eine Bestätigung des Formulars „${d.formName}“ vom ${d.date}.`],
    },
    en: {
      subject: (d) => `${d.organisation}: your submission "${d.formName}" was received`,
      paragraphs: (d) => [...d.text.split(/\n{2,}/), `This confirms your submission of the form "${d.formName}" on ${d.date}.`],
    },
    fr: {
      subject: (d) => `${d.organisation} : votre envoi « ${d.formName} » a été reçu`,
      paragraphs: (d) => [...d.text.split(/\n{2,}/), `Ceci confirme votre envoi du formulaire « ${d.formName} » le ${d.date}.`],
    },
  },
};
