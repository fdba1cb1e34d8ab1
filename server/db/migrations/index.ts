import type { Migration, MigrationProvider } from 'kysely';
import * as core from './0001-core';
import * as escalations from './0002-escalations';
import * as secupass from './0003-secupass';
import * as deliveries from './0010-deliveries';
import * as deliveryE2e from './0011-delivery-e2e';
import * as virusScan from './0012-virus-scan';
import * as externalSignup from './0013-external-signup';
import * as addinSessions from './0014-addin-sessions';
import * as listPaging from './0015-list-paging';
import * as senders from './0017-senders';
import * as loginThrottle from './0019-login-throttle';
import * as contactPins from './0021-contact-pins';
import * as dataRooms from './0022-data-rooms';
import * as submitBox from './0023-submit-box';
import * as theme from './0024-theme';
import * as reportIndexes from './0025-report-indexes';
import * as roomFiles from './0026-room-files';
import * as forms from './0027-forms';
import * as submitBoxLevels from './0028-submit-box-levels';
import * as reportTotals from './0029-report-totals';
import * as sharedState from './0030-shared-state';
import * as roomE2e from './0031-room-e2e';
import * as roomFileOps from './0032-room-file-ops';
import * as roomAdmin from './0033-room-admin';
import * as formAdmin from './0035-form-admin';
import * as formHardening from './0036-form-hardening';
import * as flows from './0037-flows';
import * as roomFileListing from './0038-room-file-listing';
import * as roomInvitations from './0039-room-invitations';
import * as roomRequests from './0040-room-requests';
import * as roomE2eFileOps from './0042-room-e2e-file-ops';
import * as formPages from './0043-form-pages';
import * as formLayout from './0044-form-layout';
import * as roomLinks from './0050-room-links';
import * as roomFileSortIndexes from './0051-room-file-sort-indexes';
import * as roomKeyGrants from './0056-room-key-grants';
import * as roomMemberLists from './0057-room-member-lists';
import * as storedNames from './0058-stored-names';
import * as trustNetworks from './0059-trust-networks';
import * as trustDeliveries from './0061-trust-deliveries';
import * as roomMemberListHistory from './0062-room-member-list-history';
import * as formConfirmationValues from './0064-form-confirmation-values';
import * as roomComments from './0065-room-comments';
import * as roomRetention from './0066-room-retention';
import * as trustE2e from './0068-trust-e2e';
import * as termsConsent from './0070-terms-consent';
import * as roomLinkLimits from './0072-room-link-limits';
import * as formSubmissionValues from './0073-form-submission-values';
import * as storageQuotas from './0078-storage-quotas';
import * as roomFolderLinks from './0079-room-folder-links';
import * as notices from './0080-notices';
import * as flowWebhookAttempts from './0081-flow-webhook-attempts';
import * as roomE2eFolderLabels from './0083-room-e2e-folder-labels';

/**
 * Every migration, in order, for SQLite and PostgreSQL alike. A static list (not a
 * folder scan) so bundlers and tsx need no file-system tricks.
 *
 * To add one: write `NNNN-name.ts` exporting `up` (and `down`), import it here and
 * append it. Names sort by their number; never rename or reorder a shipped one.
 */
export const MIGRATIONS: Record<string, Migration> = {
  '0001-core': core,
  '0002-escalations': escalations,
  '0003-secupass': secupass,
  '0010-deliveries': deliveries,
  '0011-delivery-e2e': deliveryE2e,
  '0012-virus-scan': virusScan,
  '0013-external-signup': externalSignup,
  '0014-addin-sessions': addinSessions,
  '0015-list-paging': listPaging,
  '0017-senders': senders,
  '0019-login-throttle': loginThrottle,
  '0021-contact-pins': contactPins,
  '0022-data-rooms': dataRooms,
  '0023-submit-box': submitBox,
  '0024-theme': theme,
  '0025-report-indexes': reportIndexes,
  '0026-room-files': roomFiles,
  '0027-forms': forms,
  '0028-submit-box-levels': submitBoxLevels,
  '0029-report-totals': reportTotals,
  '0030-shared-state': sharedState,
  '0031-room-e2e': roomE2e,
  '0032-room-file-ops': roomFileOps,
  '0033-room-admin': roomAdmin,
  '0035-form-admin': formAdmin,
  '0036-form-hardening': formHardening,
  '0037-flows': flows,
  '0038-room-file-listing': roomFileListing,
  '0039-room-invitations': roomInvitations,
  '0040-room-requests': roomRequests,
  '0042-room-e2e-file-ops': roomE2eFileOps,
  '0043-form-pages': formPages,
  '0044-form-layout': formLayout,
  '0050-room-links': roomLinks,
  '0051-room-file-sort-indexes': roomFileSortIndexes,
  '0056-room-key-grants': roomKeyGrants,
  '0057-room-member-lists': roomMemberLists,
  '0058-stored-names': storedNames,
  '0059-trust-networks': trustNetworks,
  '0061-trust-deliveries': trustDeliveries,
  '0062-room-member-list-history': roomMemberListHistory,
  '0064-form-confirmation-values': formConfirmationValues,
  '0065-room-comments': roomComments,
  '0066-room-retention': roomRetention,
  '0068-trust-e2e': trustE2e,
  '0070-terms-consent': termsConsent,
  '0072-room-link-limits': roomLinkLimits,
  '0073-form-submission-values': formSubmissionValues,
  '0078-storage-quotas': storageQuotas,
  '0079-room-folder-links': roomFolderLinks,
  '0080-notices': notices,
  '0081-flow-webhook-attempts': flowWebhookAttempts,
  '0083-room-e2e-folder-labels': roomE2eFolderLabels,
};

export const staticMigrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
