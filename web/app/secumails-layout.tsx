import { DeliveryNav } from '@web/features/shell/delivery-nav';
import { Outlet } from 'react-router';

/** Delivery area: its product menu above the page. */
export function SecumailsLayout() {
  return (
    <>
      <DeliveryNav />
      <Outlet />
    </>
  );
}
