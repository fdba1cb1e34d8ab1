/** Kuvert delivery links of this server in a received mail's text (level-1 download and level-2 inbox links). */
export function deliveryLinksIn(text: string, origin: string): string[] {
  const escaped = origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`${escaped}/secumails/[^\\s<>"')\\]]+`, 'g');
  // A sentence's full stop or comma after the link is not part of it.
  return [...new Set((text.match(pattern) ?? []).map((link) => link.replace(/[.,;:!?]+$/, '')))];
}
