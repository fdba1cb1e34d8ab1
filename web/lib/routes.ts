/** Path strings of the web client, kept in one table (SPEC §2). */
export const AUTH_BASE = '/auth';
export const SECUMAILS_BASE = '/secumails';
export const ADMIN_BASE = '/admin';

export const ROUTES = {
  inbox: `${SECUMAILS_BASE}/inbox`,
  outbox: `${SECUMAILS_BASE}/outbox`,
  send: `${SECUMAILS_BASE}/send`,
  sendSuccess: `${SECUMAILS_BASE}/send-success`,
  submitBox: `${SECUMAILS_BASE}/submit-box`,
  /** Release deliveries (SPEC §2; also under /secumails/:locale/release, the mails' link). */
  release: `${SECUMAILS_BASE}/release`,
  releaseSuccess: `${SECUMAILS_BASE}/release-success`,
  settings: '/settings',
  admin: ADMIN_BASE,
  datarooms: '/datarooms',
  /** A data room's top level, or one of its folders. */
  room: (roomUuid: string, folderUuid?: string) => (folderUuid ? `/datarooms/${roomUuid}/folders/${folderUuid}` : `/datarooms/${roomUuid}`),
  /** Search results across all data rooms (`?q=`). */
  roomsSearch: '/datarooms/search',
  /** Shared with me and recent files (issue 32 §2). */
  roomsRecent: '/datarooms/recent',
  /** A room's trash (OWNER, EDITOR): plain and end-to-end encrypted rooms. */
  roomTrash: (roomUuid: string) => `/datarooms/${roomUuid}/trash`,
  secureRoomTrash: (roomUuid: string) => `/secure-rooms/${roomUuid}/trash`,
  /** End-to-end encrypted rooms (issue 15): the list, a room's top level and its folders. */
  secureRooms: '/secure-rooms',
  secureRoom: (roomUuid: string, folderUuid?: string) => (folderUuid ? `/secure-rooms/${roomUuid}/folders/${folderUuid}` : `/secure-rooms/${roomUuid}`),
  forms: '/forms',
  flows: '/flows',
  reports: '/reports',
  help: '/help',
  login: `${AUTH_BASE}/login`,
  captcha: `${AUTH_BASE}/captcha`,
  accountVerification: `${AUTH_BASE}/account-verification`,
  totpAuthentication: `${AUTH_BASE}/totp-authentication`,
  totpRegistration: `${AUTH_BASE}/totp-registration`,
  loginDisclaimer: `${AUTH_BASE}/login-disclaimer`,
  requestResetPassword: `${AUTH_BASE}/request-reset-password`,
  requestResetPasswordSuccess: `${AUTH_BASE}/request-reset-password-success`,
  resetPassword: `${AUTH_BASE}/reset-password`,
  resetPasswordSuccess: `${AUTH_BASE}/reset-password-success`,
  terms: `${AUTH_BASE}/terms`,
  /** Self-registration (issue 17 §1); /webui/signup redirects here. */
  signup: `${AUTH_BASE}/signup`,
  deliverySignup: `${AUTH_BASE}/delivery-signup`,
  deliverySignupDar: `${AUTH_BASE}/delivery-signup-dar`,
  dataroomSignup: `${AUTH_BASE}/dataroom-signup`,
  dataroomSignupDar: `${AUTH_BASE}/dataroom-signup-dar`,
  setSecuPass: `${AUTH_BASE}/set-secupass`,
  setSecuPassSuccess: `${AUTH_BASE}/set-secupass-success`,
  createSecuPass: `${AUTH_BASE}/create-secupass`,
  createSecuPassSuccess: `${AUTH_BASE}/create-secupass-success`,
  changeSecuPass: `${AUTH_BASE}/change-secupass`,
  changeSecuPassSuccess: `${AUTH_BASE}/change-secupass-success`,
  secuPassApprovalPending: `${AUTH_BASE}/secupass-approval-pending`,
  adminUsers: `${ADMIN_BASE}/users`,
} as const;

/** Auth-area pages that need a signed-in user, so sign-in may continue to them (invitation links). */
const SIGNED_IN_AUTH_PAGES: readonly string[] = [ROUTES.setSecuPass, ROUTES.createSecuPass, ROUTES.changeSecuPass, ROUTES.secuPassApprovalPending];

/** Legacy server pages (DESIGN §9). */
export const LEGACY_PAGES = {
  wizard: '/webui/wizard',
} as const;

/** Login address that returns to `target` (a full path with query) afterwards (SPEC §2). */
export function loginPathFor(target: string): string {
  return `${ROUTES.login}?continue=${encodeURIComponent(target)}`;
}

/** The terms agreement, continuing to `target` once agreed (issue 34). */
export function termsPathFor(target: string): string {
  return `${ROUTES.terms}?continue=${encodeURIComponent(target)}`;
}

/** Only same-site paths are valid continue targets (no open redirect). */
export function safeContinueTarget(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (value.startsWith(`${AUTH_BASE}/`) && !SIGNED_IN_AUTH_PAGES.includes(value.split(/[?#]/)[0] ?? '')) return null;
  return value;
}
