import { LoadingScreen } from '@web/components/loading-screen';
import { lazyPage } from '@web/lib/lazy-page';
import type { RouteHandle } from '@web/lib/route-handle';
import { AUTH_BASE, ROUTES } from '@web/lib/routes';
import { approvalTitleKeyOf } from '@web/features/secupass/secupass-context';
import { REPORT_ROLES } from '@shared/contract/reports';
import { PASSWORD_LINK_INVITATION_FLAG } from '@shared/contract/auth-escalation';
import { FLOW_ROLES } from '@shared/contract/flow-roles';
import { FORM_ROLES } from '@shared/contract/forms';
import { createBrowserRouter, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { LANGUAGES } from '@shared/contract/constants';
import { createRootLoader } from './root-loader';
import { RootLayout } from './root-layout';
import { RouteError } from './route-error';
import { SecumailsLayout } from './secumails-layout';
import { NotFoundPage } from './status-pages';

const handle = (value: RouteHandle): RouteHandle => value;
const toInbox = () => redirect(ROUTES.inbox);
/** Routes that only redirect still need a component, or react-router warns about an empty leaf. */
const Nothing = () => null;
/**
 * Pages the server serves itself (the add-in's sign-in dialog continues at /addin/dialog.html
 * after the web sign-in): a full page load instead of a client-side route.
 */
const serverPage = ({ request }: { request: Request }) => {
  const url = new URL(request.url);
  window.location.replace(`${url.pathname}${url.search}`);
  return null;
};

const inboxPages = () => import(/* webpackChunkName: "inbox" */ '@web/features/secumails/inbox-page');
const inbox = lazyPage(inboxPages, 'InboxPage');
const inboxDetail = lazyPage(inboxPages, 'InboxDetailPage');
const outboxPages = () => import(/* webpackChunkName: "outbox" */ '@web/features/secumails/outbox-page');
const releasePages = () => import(/* webpackChunkName: "release" */ '@web/features/secumails/release-page');
const downloadPages = () => import(/* webpackChunkName: "download" */ '@web/features/secumails/download-page');
const download = lazyPage(downloadPages, 'DownloadPage');
const downloadSuccess = lazyPage(downloadPages, 'DownloadSuccessPage');
const submitBoxPublicPages = () => import(/* webpackChunkName: "submit-box-public" */ '@web/features/submit-box/public-pages');
const roomPages = () => import(/* webpackChunkName: "rooms" */ '@web/features/rooms/rooms-page');
const roomPage = () => import(/* webpackChunkName: "rooms" */ '@web/features/rooms/room-page');
const roomsSearchPage = () => import(/* webpackChunkName: "rooms" */ '@web/features/rooms/rooms-search-page');
const secureRoomPages = () => import(/* webpackChunkName: "secure-rooms" */ '@web/features/rooms/e2e/secure-rooms-page');
const secureRoomPage = () => import(/* webpackChunkName: "secure-rooms" */ '@web/features/rooms/e2e/e2e-room-page');
const externalPages = () => import(/* webpackChunkName: "external" */ '@web/features/secumails/external-pages');
const roomRequestPages = () => import(/* webpackChunkName: "send" */ './room-request-pages');

const secuPassPage = lazyPage(() => import(/* webpackChunkName: "secupass" */ '@web/features/secupass/set-secupass-page'), 'SetSecuPassPage');
const secuPassPages = () => import(/* webpackChunkName: "secupass" */ '@web/features/secupass/set-secupass-page');
const changeSecuPassPages = () => import(/* webpackChunkName: "secupass-change" */ '@web/features/secupass/change-secupass-page');

/** Passphrase screens (SPEC §2): auth-area chrome, but they need a signed-in user. */
function secuPassRoutes(): RouteObject[] {
  return [
    { path: 'set-secupass', handle: handle({ auth: true, titleKey: 'secupass:set.title' }), lazy: secuPassPage },
    { path: 'set-secupass-success', handle: handle({ auth: true, titleKey: 'secupass:set.successTitle' }), lazy: lazyPage(secuPassPages, 'SetSecuPassSuccessPage') },
    { path: 'create-secupass', handle: handle({ auth: true, titleKey: 'secupass:create.title' }), lazy: lazyPage(secuPassPages, 'CreateSecuPassPage') },
    { path: 'create-secupass-success', handle: handle({ auth: true, titleKey: 'secupass:create.successTitle' }), lazy: lazyPage(secuPassPages, 'CreateSecuPassSuccessPage') },
    { path: 'change-secupass', handle: handle({ auth: true, titleKey: 'secupass:change.title' }), lazy: lazyPage(changeSecuPassPages, 'ChangeSecuPassPage') },
    { path: 'change-secupass-success', handle: handle({ auth: true, titleKey: 'secupass:change.successTitle' }), lazy: lazyPage(changeSecuPassPages, 'ChangeSecuPassSuccessPage') },
    {
      path: 'secupass-approval-pending',
      handle: handle({ auth: true, titleKey: 'secupass:approval.title', titleKeyFor: approvalTitleKeyOf }),
      lazy: lazyPage(() => import(/* webpackChunkName: "secupass-approval" */ '@web/features/secupass/approval-pending-page'), 'SecuPassApprovalPendingPage'),
    },
  ];
}

/** Auth-area pages: each a lazy chunk, no sign-in needed, minimal chrome. */
const authRoutes: RouteObject[] = [
  { index: true, loader: () => redirect(ROUTES.login), Component: Nothing },
  {
    path: 'login',
    handle: handle({ titleKey: 'auth:login.title' }),
    lazy: lazyPage(() => import(/* webpackChunkName: "auth-login" */ '@web/features/auth/pages/login-page'), 'LoginPage'),
  },
  {
    path: 'captcha',
    handle: handle({ titleKey: 'auth:captcha.title' }),
    lazy: lazyPage(() => import(/* webpackChunkName: "auth-captcha" */ '@web/features/auth/pages/captcha-page'), 'CaptchaPage'),
  },
  {
    path: 'account-verification',
    handle: handle({ titleKey: 'auth:verification.title' }),
    lazy: lazyPage(() => import(/* webpackChunkName: "auth-verification" */ '@web/features/auth/pages/account-verification-page'), 'AccountVerificationPage'),
  },
  {
    path: 'totp-authentication',
    handle: handle({ titleKey: 'auth:totp.title' }),
    lazy: lazyPage(() => import(/* webpackChunkName: "auth-totp" */ '@web/features/auth/pages/totp-authentication-page'), 'TotpAuthenticationPage'),
  },
  {
    path: 'totp-registration',
    handle: handle({ titleKey: 'auth:totpRegistration.title' }),
    lazy: lazyPage(() => import(/* webpackChunkName: "auth-totp-registration" */ '@web/features/auth/pages/totp-registration-page'), 'TotpRegistrationPage'),
  },
  {
    path: 'login-disclaimer',
    handle: handle({ titleKey: 'auth:disclaimer.title' }),
    lazy: lazyPage(() => import(/* webpackChunkName: "auth-disclaimer" */ '@web/features/auth/pages/login-disclaimer-page'), 'LoginDisclaimerPage'),
  },
  {
    path: 'request-reset-password',
    handle: handle({ titleKey: 'auth:requestReset.title' }),
    lazy: lazyPage(() => import(/* webpackChunkName: "auth-reset" */ '@web/features/auth/pages/request-reset-password-page'), 'RequestResetPasswordPage'),
  },
  {
    path: 'request-reset-password-success',
    handle: handle({ titleKey: 'auth:requestReset.successTitle' }),
    lazy: lazyPage(() => import(/* webpackChunkName: "auth-reset" */ '@web/features/auth/pages/request-reset-password-page'), 'RequestResetPasswordSuccessPage'),
  },
  {
    path: 'reset-password',
    handle: handle({ titleKey: 'auth:resetPassword.title', titleKeyFor: (query) => (query.get(PASSWORD_LINK_INVITATION_FLAG) === '1' ? 'auth:resetPassword.firstTitle' : 'auth:resetPassword.title') }),
    lazy: lazyPage(() => import(/* webpackChunkName: "auth-reset-password" */ '@web/features/auth/pages/reset-password-page'), 'ResetPasswordPage'),
  },
  {
    path: 'reset-password-success',
    handle: handle({ titleKey: 'auth:resetPassword.successTitle', titleKeyFor: (query) => (query.get(PASSWORD_LINK_INVITATION_FLAG) === '1' ? 'auth:resetPassword.firstSuccessTitle' : 'auth:resetPassword.successTitle') }),
    lazy: lazyPage(() => import(/* webpackChunkName: "auth-reset-password" */ '@web/features/auth/pages/reset-password-page'), 'ResetPasswordSuccessPage'),
  },
  ...secuPassRoutes(),
  // Delivery signup of external recipients (SPEC §2), plain and double-authenticated (SMS code).
  {
    path: 'delivery-signup',
    handle: handle({ titleKey: 'external:signup.title' }),
    lazy: lazyPage(externalPages, 'DeliverySignupPage'),
  },
  // With `token`: a data-room request's signup (room-request-pages.tsx); without: the SMS variant above.
  {
    path: 'delivery-signup-dar',
    handle: handle({ titleKey: 'external:signup.title' }),
    lazy: lazyPage(roomRequestPages, 'DeliverySignupDarRoutePage'),
  },
  // Data-room invitation signup (SPEC §2); the -dar variant goes to its `back` path afterwards.
  ...['dataroom-signup', 'dataroom-signup-dar'].map((path) => ({
    path,
    handle: handle({ titleKey: 'auth:dataroomSignup.title' }),
    lazy: lazyPage(() => import(/* webpackChunkName: "auth-dataroom-signup" */ '@web/features/auth/pages/dataroom-signup-page'), 'DataroomSignupPage'),
  })),
  {
    path: 'signup',
    handle: handle({ titleKey: 'auth:signup.title' }),
    lazy: lazyPage(() => import(/* webpackChunkName: "auth-signup" */ '@web/features/auth/pages/signup-page'), 'SignupPage'),
  },
  {
    path: 'terms',
    handle: handle({ titleKey: 'auth:terms.title' }),
    lazy: lazyPage(() => import(/* webpackChunkName: "auth-terms" */ '@web/features/auth/pages/terms-page'), 'TermsPage'),
  },
];

/** Secure mail area (SPEC §2); the optional locale segment switches the language. */
const secumailsRoutes: RouteObject[] = [
  { index: true, loader: toInbox, Component: Nothing },
  // `/secumails/de` and the like: the locale with the empty path (SPEC §2); an unknown locale is not found (root loader).
  {
    path: ':locale',
    loader: ({ params }: LoaderFunctionArgs) => ((LANGUAGES as readonly string[]).includes(params.locale ?? '') ? redirect(`/secumails/${params.locale}/inbox`) : null),
    Component: Nothing,
  },
  ...['inbox', ':locale/inbox'].map((path) => ({
    path,
    handle: handle({ auth: true, titleKey: 'shell:inbox.title' }),
    lazy: inbox,
    children: [{ path: ':deliveryUuid', handle: handle({ titleKey: 'deliveries:inbox.detailTitle' }), lazy: inboxDetail }],
  })),
  {
    path: 'outbox',
    handle: handle({ auth: true, titleKey: 'shell:deliveryMenu.sent' }),
    lazy: lazyPage(outboxPages, 'OutboxPage'),
    children: [{ path: ':deliveryUuid', handle: handle({ titleKey: 'deliveries:sent.detailTitle' }), lazy: lazyPage(outboxPages, 'OutboxDetailPage') }],
  },
  // `?dar=<token>`: the data-room request variant (room-request-pages.tsx).
  { path: 'send', handle: handle({ auth: true, titleKey: 'shell:deliveryMenu.send' }), lazy: lazyPage(roomRequestPages, 'SendRoutePage') },
  // SPEC §2: the success page has no sign-in flag.
  { path: 'send-success', handle: handle({ titleKey: 'send:success.title' }), lazy: lazyPage(() => import(/* webpackChunkName: "send" */ '@web/features/secumails/send/send-page'), 'SendSuccessPage') },
  // Release deliveries and its success page (SPEC §2, under /secumails/:locale?).
  ...['release', ':locale/release'].map((path) => ({ path, handle: handle({ auth: true, titleKey: 'release:title' }), lazy: lazyPage(releasePages, 'ReleasePage') })),
  ...['release-success', ':locale/release-success'].map((path) => ({
    path,
    handle: handle({ auth: true, titleKey: 'release:successTitle' }),
    lazy: lazyPage(releasePages, 'ReleaseSuccessPage'),
  })),
  {
    path: 'submit-box',
    handle: handle({ auth: true, roles: ['ROLE_SUBMITBOX_OWNER'], titleKey: 'shell:deliveryMenu.submitBox' }),
    lazy: lazyPage(() => import(/* webpackChunkName: "submit-box" */ '@web/features/submit-box/owner-page'), 'SubmitBoxPage'),
  },
];

/**
 * Public download pages (SPEC §2: no sign-in; download with the download.html and index.html
 * aliases, download success with {deliveryUuid}, email prompt with {shareUuid}, download
 * disclaimer with {deliveryUuid}; each with and without the locale). The mails' links for link
 * holders (EXTERNAL_WEB_LINKS.emailPrompt) land on the email prompt, which leads to the download.
 */
const downloadRoutes: RouteObject[] = ['', ':locale/'].flatMap((prefix) => [
  ...['download', 'download.html', 'index.html'].map((page) => ({
    path: `${prefix}${page}`,
    handle: handle({ layout: 'auth', titleKey: 'deliveries:download.title' }),
    lazy: download,
  })),
  { path: `${prefix}download-success/:deliveryUuid`, handle: handle({ layout: 'auth', titleKey: 'deliveries:download.successTitle' }), lazy: downloadSuccess },
  // The external recipient's first screens: the mail's link lands on the email prompt.
  { path: `${prefix}email-prompt/:shareUuid`, handle: handle({ layout: 'auth', titleKey: 'external:emailPrompt.title' }), lazy: lazyPage(externalPages, 'EmailPromptPage') },
  {
    path: `${prefix}download-disclaimer/:deliveryUuid`,
    handle: handle({ layout: 'auth', titleKey: 'external:disclaimer.title' }),
    lazy: lazyPage(externalPages, 'DownloadDisclaimerPage'),
  },
]);

const trustPages = () => import(/* webpackChunkName: "admin-trust" */ '@web/features/admin/trust-networks-routes');

function buildRoutes(): RouteObject[] {
  return [
    {
      id: 'root',
      path: '/',
      Component: RootLayout,
      HydrateFallback: LoadingScreen,
      ErrorBoundary: RouteError,
      loader: createRootLoader(() => routes),
      // Reload the user before every navigation (SPEC §2), not only when params change.
      shouldRevalidate: () => true,
      children: [
        { index: true, loader: toInbox, Component: Nothing },
        { path: AUTH_BASE.slice(1), handle: handle({ layout: 'auth' }), children: authRoutes },
        { path: 'secumails', children: [{ Component: SecumailsLayout, children: secumailsRoutes }, ...downloadRoutes] },
        {
          path: 'settings',
          handle: handle({ auth: true, titleKey: 'settings:title' }),
          // The app composes the settings page with the SecuPass section (features never import each other).
          lazy: lazyPage(() => import(/* webpackChunkName: "settings" */ './settings-route'), 'SettingsRoute'),
        },
        {
          path: 'admin',
          handle: handle({ auth: true, roles: ['ROLE_ADMIN', 'ROLE_ROOT', 'ROLE_USER_ADMIN'] }),
          children: [
            {
              index: true,
              handle: handle({ titleKey: 'shell:admin.title' }),
              lazy: lazyPage(() => import(/* webpackChunkName: "admin" */ '@web/features/admin/admin-page'), 'AdminPage'),
            },
            {
              path: 'users',
              handle: handle({ titleKey: 'admin:users.title', roles: ['ROLE_ADMIN', 'ROLE_USER_ADMIN'] }),
              lazy: lazyPage(() => import(/* webpackChunkName: "admin-users" */ '@web/features/admin/users-page'), 'AdminUsersPage'),
            },
            // Settings pages: PUT /admin/settings is ROLE_ADMIN only.
            {
              path: 'system',
              handle: handle({ titleKey: 'admin:system.title', roles: ['ROLE_ADMIN'] }),
              lazy: lazyPage(() => import(/* webpackChunkName: "admin-settings" */ '@web/features/admin/system-settings-page'), 'SystemSettingsPage'),
            },
            {
              path: 'secure-mails',
              handle: handle({ titleKey: 'admin:secureMails.title', roles: ['ROLE_ADMIN'] }),
              lazy: lazyPage(() => import(/* webpackChunkName: "admin-settings" */ '@web/features/admin/secure-mails-settings-page'), 'SecureMailsSettingsPage'),
            },
            {
              path: 'license',
              handle: handle({ titleKey: 'admin:licence.title', roles: ['ROLE_ADMIN', 'ROLE_USER_ADMIN'] }),
              lazy: lazyPage(() => import(/* webpackChunkName: "admin-licence" */ '@web/features/admin/licence-page'), 'LicencePage'),
            },
            {
              path: 'theme',
              handle: handle({ titleKey: 'admin:theme.title', roles: ['ROLE_ADMIN'] }),
              lazy: lazyPage(() => import(/* webpackChunkName: "admin-theme" */ '@web/features/admin/theme-page'), 'ThemePage'),
            },
            {
              path: 'audit-log',
              handle: handle({ titleKey: 'admin:audit.title', roles: ['ROLE_ADMIN'] }),
              lazy: lazyPage(() => import(/* webpackChunkName: "admin-audit" */ '@web/features/admin/audit-log-page'), 'AuditLogPage'),
            },
            // Trust networks (issue 30, slice 1): connections and their test, ROLE_ADMIN only.
            { path: 'trust-networks', handle: handle({ titleKey: 'admin:trust.title', roles: ['ROLE_ADMIN'] }), lazy: lazyPage(trustPages, 'TrustNetworksPage') },
            { path: 'trust-networks/create', handle: handle({ titleKey: 'admin:trust.createTitle', roles: ['ROLE_ADMIN'] }), lazy: lazyPage(trustPages, 'TrustConnectionPage') },
            { path: 'trust-networks/edit/:connectionId', handle: handle({ titleKey: 'admin:trust.editTitle', roles: ['ROLE_ADMIN'] }), lazy: lazyPage(trustPages, 'TrustConnectionPage') },
            // Secure rooms (issue 15): settings of PUT /admin/settings and the trash bin, ROLE_ADMIN only.
            {
              path: 'secure-rooms',
              handle: handle({ titleKey: 'admin:roomsAdmin.settings.title', roles: ['ROLE_ADMIN'] }),
              lazy: lazyPage(() => import(/* webpackChunkName: "admin-settings" */ '@web/features/admin/rooms-settings-page'), 'RoomsSettingsPage'),
            },
            {
              path: 'trash-bin',
              handle: handle({ titleKey: 'admin:roomsAdmin.trash.title', roles: ['ROLE_ADMIN'] }),
              lazy: lazyPage(() => import(/* webpackChunkName: "admin-trash" */ '@web/features/admin/rooms-trash-page'), 'RoomsTrashPage'),
            },
            // Storage quotas per room (issue 32), ROLE_ADMIN only.
            {
              path: 'storage-quotas',
              handle: handle({ titleKey: 'admin:quotas.title', roles: ['ROLE_ADMIN'] }),
              lazy: lazyPage(() => import(/* webpackChunkName: "admin-quotas" */ '@web/features/admin/storage-quotas-page'), 'StorageQuotasPage'),
            },
          ],
        },
        {
          // Data rooms (issue 15, plain rooms): the list, a room's top level and its folders.
          path: 'datarooms',
          handle: handle({ auth: true, titleKey: 'shell:menu.datarooms' }),
          children: [
            { index: true, lazy: lazyPage(roomPages, 'RoomsPage') },
            { path: ':roomUuid', handle: handle({ titleKey: 'rooms:room.title' }), lazy: lazyPage(roomPage, 'RoomPage') },
            { path: ':roomUuid/folders/:folderUuid', handle: handle({ titleKey: 'rooms:room.title' }), lazy: lazyPage(roomPage, 'RoomPage') },
            { path: 'search', handle: handle({ titleKey: 'rooms:search.title' }), lazy: lazyPage(roomsSearchPage, 'RoomsSearchPage') },
            {
              path: 'recent',
              handle: handle({ titleKey: 'roomSelect:recent.title' }),
              lazy: lazyPage(() => import(/* webpackChunkName: "rooms" */ '@web/features/rooms/rooms-recent-page'), 'RoomsRecentPage'),
            },
            { path: ':roomUuid/trash', handle: handle({ titleKey: 'rooms:trash.title' }), lazy: lazyPage(() => import(/* webpackChunkName: "rooms" */ '@web/features/rooms/room-trash'), 'RoomTrashPage') },
          ],
        },
        {
          // End-to-end encrypted rooms (issue 15): their list, a room's top level and its folders.
          path: 'secure-rooms',
          handle: handle({ auth: true, titleKey: 'shell:menu.secureRooms' }),
          children: [
            { index: true, lazy: lazyPage(secureRoomPages, 'SecureRoomsPage') },
            { path: ':roomUuid', handle: handle({ titleKey: 'rooms:e2e.title' }), lazy: lazyPage(secureRoomPage, 'E2eRoomPage') },
            { path: ':roomUuid/folders/:folderUuid', handle: handle({ titleKey: 'rooms:e2e.title' }), lazy: lazyPage(secureRoomPage, 'E2eRoomPage') },
            {
              path: ':roomUuid/trash',
              handle: handle({ titleKey: 'rooms:trash.title' }),
              lazy: lazyPage(() => import(/* webpackChunkName: "secure-rooms" */ '@web/features/rooms/e2e/e2e-room-trash'), 'E2eRoomTrashPage'),
            },
          ],
        },
        {
          path: 'forms',
          // The server's rule (shared/contract/forms.ts FORM_ROLES).
          handle: handle({ auth: true, titleKey: 'forms:title', roles: FORM_ROLES }),
          children: [
            { index: true, lazy: lazyPage(() => import(/* webpackChunkName: "forms" */ '@web/features/forms/forms-list-page'), 'FormsListPage') },
            { path: ':formUuid', lazy: lazyPage(() => import(/* webpackChunkName: "form-edit" */ '@web/features/forms/form-edit-page'), 'FormEditPage') },
            { path: 'templates', lazy: lazyPage(() => import(/* webpackChunkName: "form-templates" */ '@web/features/forms/form-templates-page'), 'FormTemplatesPage') },
          ],
        },
        {
          path: 'flows',
          // The server's rule (shared/contract/flows.ts FLOW_ROLES): ROLE_SECUFLOWS_ACCESS only.
          handle: handle({ auth: true, titleKey: 'flows:title', roles: FLOW_ROLES }),
          lazy: lazyPage(() => import(/* webpackChunkName: "flows" */ '@web/features/flows/flows-page'), 'FlowsPage'),
        },
        {
          path: 'reports',
          // The server's rule (shared/contract/reports.ts REPORT_ROLES): ROLE_ADMIN and config.group.reporting.
          handle: handle({ auth: true, titleKey: 'reports:title', roles: REPORT_ROLES }),
          lazy: lazyPage(() => import(/* webpackChunkName: "reports" */ '@web/features/reports/reports-page'), 'ReportsPage'),
        },
        { path: 'help', handle: handle({ auth: true, titleKey: 'help:title' }), lazy: lazyPage(() => import(/* webpackChunkName: "help" */ '@web/features/help/help-page'), 'HelpPage') },
        {
          // The submit box's public pages (no account): request a ticket, the mailed ticket page.
          path: 'submit',
          handle: handle({ layout: 'auth' }),
          children: [
            { path: ':boxUuid', handle: handle({ titleKey: 'submitBox:owner.title' }), lazy: lazyPage(submitBoxPublicPages, 'SubmitBoxPublicPage') },
            // `#ticket=…` (issue 28); `ticket/:ticket` is the form mailed before (the page moves it into the fragment).
            ...['ticket', 'ticket/:ticket'].map((path) => ({ path, handle: handle({ titleKey: 'submitBox:owner.title' }), lazy: lazyPage(submitBoxPublicPages, 'SubmitTicketPage') })),
          ],
        },
        {
          // The public form page (no account unless the form asks for one).
          path: 'form/:formId',
          handle: handle({ layout: 'auth', titleKey: 'forms:title', plainAllowed: true }),
          lazy: lazyPage(() => import(/* webpackChunkName: "form-public" */ '@web/features/forms/public-form-page'), 'PublicFormPage'),
        },
        // The landing page of a public link to a plain room's file (no account; issue 15): `#token=…`;
        // `/room-link/{token}` is the form handed out before issue 28 (the page moves it into the fragment).
        ...['room-link', 'room-link/:token'].map((path) => ({
          path,
          handle: handle({ layout: 'auth', titleKey: 'roomLinks:page.title' }),
          lazy: lazyPage(() => import(/* webpackChunkName: "room-link-public" */ '@web/features/rooms/links/link-page'), 'RoomLinkPage'),
        })),
        // The landing page of a folder or upload-only drop link (issue 32 §2): `#token=…`.
        {
          path: 'room-folder-link',
          handle: handle({ layout: 'auth', titleKey: 'roomLinks:page.title' }),
          lazy: lazyPage(() => import(/* webpackChunkName: "room-folder-link-public" */ '@web/features/rooms/links/folder-link-page'), 'RoomFolderLinkPage'),
        },
        { path: 'addin/*', loader: serverPage, Component: Nothing },
        // Unmatched: the generic not-found page (SPEC §2 screen list) instead of a silent jump to the inbox.
        { path: '*', handle: handle({ titleKey: 'shell:notFound.title' }), Component: NotFoundPage },
      ],
    },
  ];
}

const routes = buildRoutes();

export function createAppRouter() {
  return createBrowserRouter(routes);
}

export { routes as appRoutes };
