/** One namespace per area; resources live in locales/<lang>/<namespace>.json (DESIGN §1). */
export const I18N_NAMESPACES = [
  'common',
  'shell',
  'auth',
  'settings',
  'secupass',
  'admin',
  'deliveries',
  'external',
  'send',
  'release',
  'addin',
  'help',
  'reports',
  'submitBox',
  'rooms',
  'forms',
  'flows',
  'formAdmin',
  'formsShare',
  'roomRequests',
  'roomLinks',
  'roomComments',
  'roomSelect',
] as const;
export type I18nNamespace = (typeof I18N_NAMESPACES)[number];
export const DEFAULT_NAMESPACE: I18nNamespace = 'common';
