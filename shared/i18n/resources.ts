import deCommon from '@locales/de/common.json';
import enCommon from '@locales/en/common.json';
import frCommon from '@locales/fr/common.json';
import deShell from '@locales/de/shell.json';
import enShell from '@locales/en/shell.json';
import frShell from '@locales/fr/shell.json';
import deAuth from '@locales/de/auth.json';
import enAuth from '@locales/en/auth.json';
import frAuth from '@locales/fr/auth.json';
import deSettings from '@locales/de/settings.json';
import enSettings from '@locales/en/settings.json';
import frSettings from '@locales/fr/settings.json';
import deSecupass from '@locales/de/secupass.json';
import enSecupass from '@locales/en/secupass.json';
import frSecupass from '@locales/fr/secupass.json';
import deAdmin from '@locales/de/admin.json';
import enAdmin from '@locales/en/admin.json';
import frAdmin from '@locales/fr/admin.json';
import deDeliveries from '@locales/de/deliveries.json';
import enDeliveries from '@locales/en/deliveries.json';
import frDeliveries from '@locales/fr/deliveries.json';
import deExternal from '@locales/de/external.json';
import enExternal from '@locales/en/external.json';
import frExternal from '@locales/fr/external.json';
import deSend from '@locales/de/send.json';
import enSend from '@locales/en/send.json';
import frSend from '@locales/fr/send.json';
import deRelease from '@locales/de/release.json';
import enRelease from '@locales/en/release.json';
import frRelease from '@locales/fr/release.json';
import deAddin from '@locales/de/addin.json';
import enAddin from '@locales/en/addin.json';
import frAddin from '@locales/fr/addin.json';
import deHelp from '@locales/de/help.json';
import enHelp from '@locales/en/help.json';
import frHelp from '@locales/fr/help.json';
import deReports from '@locales/de/reports.json';
import enReports from '@locales/en/reports.json';
import frReports from '@locales/fr/reports.json';
import deSubmitBox from '@locales/de/submitBox.json';
import enSubmitBox from '@locales/en/submitBox.json';
import frSubmitBox from '@locales/fr/submitBox.json';
import deRooms from '@locales/de/rooms.json';
import enRooms from '@locales/en/rooms.json';
import frRooms from '@locales/fr/rooms.json';
import deForms from '@locales/de/forms.json';
import deFormsShare from '@locales/de/formsShare.json';
import enForms from '@locales/en/forms.json';
import enFormsShare from '@locales/en/formsShare.json';
import frForms from '@locales/fr/forms.json';
import deFlows from '@locales/de/flows.json';
import enFlows from '@locales/en/flows.json';
import frFlows from '@locales/fr/flows.json';
import deFormAdmin from '@locales/de/formAdmin.json';
import enFormAdmin from '@locales/en/formAdmin.json';
import frFormAdmin from '@locales/fr/formAdmin.json';
import frFormsShare from '@locales/fr/formsShare.json';
import deRoomRequests from '@locales/de/roomRequests.json';
import enRoomRequests from '@locales/en/roomRequests.json';
import frRoomRequests from '@locales/fr/roomRequests.json';
import deRoomLinks from '@locales/de/roomLinks.json';
import enRoomLinks from '@locales/en/roomLinks.json';
import frRoomLinks from '@locales/fr/roomLinks.json';
import deRoomComments from '@locales/de/roomComments.json';
import deRoomSelect from '@locales/de/roomSelect.json';
import enRoomComments from '@locales/en/roomComments.json';
import enRoomSelect from '@locales/en/roomSelect.json';
import frRoomComments from '@locales/fr/roomComments.json';
import frRoomSelect from '@locales/fr/roomSelect.json';
import type { Language } from '@shared/contract/constants';
import type { I18nNamespace } from './namespaces';

// One line per namespace and language, so parallel branches adding namespaces merge cleanly.
/** All bundled resources; small enough (a few kB) to ship in the entry chunk. */
export const I18N_RESOURCES: Record<Language, Record<I18nNamespace, Record<string, unknown>>> = {
  de: {
    common: deCommon,
    shell: deShell,
    auth: deAuth,
    settings: deSettings,
    secupass: deSecupass,
    admin: deAdmin,
    deliveries: deDeliveries,
    external: deExternal,
    send: deSend,
    release: deRelease,
    addin: deAddin,
    help: deHelp,
    reports: deReports,
    submitBox: deSubmitBox,
    rooms: deRooms,
    forms: deForms,
    flows: deFlows,
    formAdmin: deFormAdmin,
    formsShare: deFormsShare,
    roomRequests: deRoomRequests,
    roomLinks: deRoomLinks,
    roomComments: deRoomComments,
    roomSelect: deRoomSelect,
  },
  en: {
    common: enCommon,
    shell: enShell,
    auth: enAuth,
    settings: enSettings,
    secupass: enSecupass,
    admin: enAdmin,
    deliveries: enDeliveries,
    external: enExternal,
    send: enSend,
    release: enRelease,
    addin: enAddin,
    help: enHelp,
    reports: enReports,
    submitBox: enSubmitBox,
    rooms: enRooms,
    forms: enForms,
    flows: enFlows,
    formAdmin: enFormAdmin,
    formsShare: enFormsShare,
    roomRequests: enRoomRequests,
    roomLinks: enRoomLinks,
    roomComments: enRoomComments,
    roomSelect: enRoomSelect,
  },
  fr: {
    common: frCommon,
    shell: frShell,
    auth: frAuth,
    settings: frSettings,
    secupass: frSecupass,
    admin: frAdmin,
    deliveries: frDeliveries,
    external: frExternal,
    send: frSend,
    release: frRelease,
    addin: frAddin,
    help: frHelp,
    reports: frReports,
    submitBox: frSubmitBox,
    rooms: frRooms,
    forms: frForms,
    flows: frFlows,
    formAdmin: frFormAdmin,
    formsShare: frFormsShare,
    roomRequests: frRoomRequests,
    roomLinks: frRoomLinks,
    roomComments: frRoomComments,
    roomSelect: frRoomSelect,
  },
};
