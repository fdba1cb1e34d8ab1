import type { Endpoint } from '../endpoint';
import { ACCOUNT_ENDPOINTS } from './account';
import { ADMIN_ENDPOINTS } from './admin';
import { AUTH_ESCALATION_ENDPOINTS } from './auth-escalation';
import { DELIVERY_ENDPOINTS } from './deliveries';
import { EXTERNAL_ENDPOINTS } from './external';
import { ROOM_ENDPOINTS } from './rooms';
import { SECUPASS_ENDPOINTS } from './secupass';
import { SENDER_GROUP_ENDPOINTS } from './sender-groups';
import { LICENCE_ENDPOINTS } from './licence';
import { THEME_ENDPOINTS } from './theme';
import { REPORT_ENDPOINTS } from './reports';
import { SUBMIT_BOX_ENDPOINTS } from './submit-box';
import { FORM_ENDPOINTS } from './forms';
import { ROOM_OPS_ENDPOINTS } from './room-ops';
import { FLOW_ENDPOINTS } from './flows';
import { ROOM_ADMIN_ENDPOINTS } from './room-admin';
import { FORM_ADMIN_ENDPOINTS } from './form-admin';
import { ROOM_E2E_ENDPOINTS } from './rooms-e2e';
import { FORM_LAYOUT_ENDPOINTS } from './form-layout';
import { ROOM_REQUEST_ENDPOINTS } from './room-requests';
import { ROOM_INVITATION_ENDPOINTS } from './room-invitations';
import { ROOM_LINK_ENDPOINTS } from './room-links';
import { ROOM_FOLDER_LINK_ENDPOINTS } from './room-folder-links';
import { TRUST_NETWORK_ENDPOINTS } from './trust-networks';
import { ROOM_RETENTION_ENDPOINTS } from './room-retention';
import { ROOM_COMMENT_ENDPOINTS } from './room-comments';
import { STORAGE_QUOTA_ENDPOINTS } from './storage-quotas';
import { NOTICE_ENDPOINTS } from './notices';

/** Every area of the catalogue (one file each, README.md "Endpoint catalogue"). */
export const ENDPOINT_AREAS = {
  account: ACCOUNT_ENDPOINTS,
  authEscalation: AUTH_ESCALATION_ENDPOINTS,
  deliveries: DELIVERY_ENDPOINTS,
  external: EXTERNAL_ENDPOINTS,
  secupass: SECUPASS_ENDPOINTS,
  admin: ADMIN_ENDPOINTS,
  senderGroups: SENDER_GROUP_ENDPOINTS,
  licence: LICENCE_ENDPOINTS,
  theme: THEME_ENDPOINTS,
  reports: REPORT_ENDPOINTS,
  rooms: ROOM_ENDPOINTS,
  submitBox: SUBMIT_BOX_ENDPOINTS,
  forms: FORM_ENDPOINTS,
  roomOps: ROOM_OPS_ENDPOINTS,
  flows: FLOW_ENDPOINTS,
  roomAdmin: ROOM_ADMIN_ENDPOINTS,
  formAdmin: FORM_ADMIN_ENDPOINTS,
  roomsE2e: ROOM_E2E_ENDPOINTS,
  formLayout: FORM_LAYOUT_ENDPOINTS,
  roomRequests: ROOM_REQUEST_ENDPOINTS,
  roomInvitations: ROOM_INVITATION_ENDPOINTS,
  roomLinks: ROOM_LINK_ENDPOINTS,
  roomFolderLinks: ROOM_FOLDER_LINK_ENDPOINTS,
  trustNetworks: TRUST_NETWORK_ENDPOINTS,
  roomRetention: ROOM_RETENTION_ENDPOINTS,
  roomComments: ROOM_COMMENT_ENDPOINTS,
  storageQuotas: STORAGE_QUOTA_ENDPOINTS,
  notices: NOTICE_ENDPOINTS,
} as const;

/** Every endpoint of `/api/2`, once. */
export const ENDPOINTS: readonly Endpoint[] = Object.values(ENDPOINT_AREAS).flatMap((area) => Object.values(area) as Endpoint[]);
