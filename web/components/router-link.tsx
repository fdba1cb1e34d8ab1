import { Link as FluentLink } from '@fluentui/react-components';
import type { MouseEvent, ReactNode } from 'react';
import { useHref, useLinkClickHandler, type To } from 'react-router';

/** A Fluent-styled link that navigates client-side (one interactive element, not a link in a link). */
export function RouterLink({
  to,
  children,
  onClick,
  replace,
  state,
}: {
  to: To;
  children: ReactNode;
  onClick?: () => void;
  replace?: boolean;
  /** History state for the target page. */
  state?: unknown;
}) {
  const href = useHref(to);
  const navigate = useLinkClickHandler<HTMLAnchorElement>(to, { replace, state });
  return (
    <FluentLink
      href={href}
      onClick={(event: MouseEvent<HTMLAnchorElement>) => {
        onClick?.();
        navigate(event);
      }}
    >
      {children}
    </FluentLink>
  );
}
