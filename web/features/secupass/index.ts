// What the app (and, through it, deliveries and rooms) composes from the SecuPass feature.
export { UnlockSecuPassDialog } from './unlock-secupass-dialog';
export { SecuPassSettingsSection } from './secupass-settings-section';
