/** A trust-network partner server as people know it: its host (and port when it has one); the full URL is in the connection. */
export function partnerHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
