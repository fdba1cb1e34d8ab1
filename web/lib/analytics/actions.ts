/**
 * The actions Kuvert tracks when analytics is enabled (SPEC §9 "tracked actions"; the names are
 * ours, SPEC leaves them open). Other features import the name they report and call `track()`
 * from `web/lib/analytics/analytics.ts`. Properties never carry content, names or addresses.
 */
export const ANALYTICS_ACTIONS = {
  /** Every route change; property `page`: the route pattern (ids replaced), never the query or fragment. */
  pageViewed: 'Page Viewed',
  /** Help opened; property `kind`: `widget` or `bundled`. */
  helpOpened: 'Help Opened',
  /** A delivery was sent; properties `files` (how many) and `encrypted` (end-to-end or not). */
  deliverySent: 'Delivery Sent',
  /** A report was requested (Reports page); property `report`: its id. */
  reportRequested: 'Report Requested',
  /** A report's CSV was downloaded; property `report`: its id. */
  reportDownloaded: 'Report Downloaded',
  /** SPEC §9 "DAR button": the send of a data-room request's answer (dar send page); property `files`. */
  darButton: 'DAR Button',
  /** SPEC §9 "deletion period changed": a room's retention policy saved; properties `enabled`, `days` (0: none). */
  deletionPeriodChanged: 'Deletion Period Changed',
  // SPEC §9 "Tracked actions" (issue 34); where each is sent: spec-actions.ts.
  accessChanged: 'Access Changed',
  accessRevoked: 'Access Revoked',
  accountVerificationButton: 'Account Verification Button',
  activityLogOpened: 'Activity Log Opened',
  activityTabViewed: 'Activity Tab Viewed',
  captchaButton: 'Captcha Button',
  dataRoomAdministered: 'Data Room Administered',
  dataRoomCreated: 'Data Room Created',
  dataRoomKeysShared: 'Data Room Keys Shared',
  dataRoomSelected: 'Data Room Selected',
  deleteDeliveryButton: 'Delete Delivery Button',
  deliveryAttachmentsDownloaded: 'Delivery Attachments Downloaded',
  /** Property `filter`: `all` or `notDownloaded`. */
  deliveryFilterClicked: 'Delivery Filter Clicked',
  deliveryOpened: 'Delivery Opened',
  deliveryReplyButton: 'Delivery Reply Button',
  /** A form footer's imprint, privacy or support link; property `link`: which (never the address). */
  externalLinkClicked: 'External Link Clicked',
  fileClassificationEdit: 'File Classification Edit',
  fileDownloaded: 'File Downloaded',
  fileEdited: 'File Edited',
  fileRestored: 'File Restored',
  fileSaved: 'File Saved',
  fileStatusEdit: 'File Status Edit',
  fileViewed: 'File Viewed',
  /** Property `files`: how many. */
  filesUploaded: 'Files Uploaded',
  fileVersionDownloaded: 'File Version Downloaded',
  folderClassificationEdit: 'Folder Classification Edit',
  formsCtaClicked: 'Forms CTA Clicked',
  formsNavigatedTo: 'Forms Navigated To',
  loggedOut: 'Logged Out',
  loginButton: 'Login Button',
  loginDisclaimerAccepted: 'Login Disclaimer Accepted',
  /** Property `step`: the screen the refusal leads to (a route path). */
  loginFailed: 'Login Failed',
  passwordForgottenButton: 'Password Forgotten Button',
  passwordRequestResetButton: 'Password Request Reset Button',
  passwordResetButton: 'Password Reset Button',
  printDeliveryButton: 'Print Delivery Button',
  formSubmitted: 'Form Submitted',
  passphraseCreated: 'Passphrase Created',
  passphraseEntered: 'Passphrase Entered',
  passphraseUpgraded: 'Passphrase Upgraded',
  signupButton: 'Signup Button',
  /** Property `status`: the HTTP status of the refusal (0: no answer). */
  signupFailed: 'Signup Failed',
  ssoButton: 'SSO Button',
  submitBoxSubmitted: 'Submit Box Submitted',
  tfaAuthenticationButton: 'TFA Authentication Button',
  tfaRegistrationButton: 'TFA Registration Button',
  tfaResetButton: 'TFA Reset Button',
  tfaUserRegistered: 'TFA User Registered',
  trashBinAccessed: 'Trash Bin Accessed',
  /** Property `folder`: whether the change was on a folder (else the room). */
  usersInvited: 'Users Invited',
} as const;

export type AnalyticsAction = (typeof ANALYTICS_ACTIONS)[keyof typeof ANALYTICS_ACTIONS];
export type AnalyticsProperties = Readonly<Record<string, string | number | boolean>>;
