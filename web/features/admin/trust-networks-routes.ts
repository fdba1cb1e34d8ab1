/** The trust-network pages in one chunk (web/app/router.tsx). */
export { TrustNetworksPage } from './trust-networks-page';
export { TrustConnectionPage } from './trust-connection-page';
