import { Button, IconButton, Menu, Portal } from '@chakra-ui/react';
import { useState } from 'react';
import type { OrderRowView } from '@pod/contracts';
import { archiveOrder, restoreOrder } from '../../hooks/api/orderActions';
import { toaster } from '../ui/toaster';
import { ManualMatchDialog } from './ManualMatchDialog';
import { changeErrorText, ORDER_MSG } from './orderText';
import { UnmatchConfirmDialog } from './UnmatchConfirmDialog';

/** How long the "Order archived" toast stays, so the seller has time to press Undo. */
const UNDO_TOAST_MS = 10_000;

/** Which changes an order takes (the server's rule, manual-match.ts; archived orders only restore). */
export function orderActionsOf(order: OrderRowView) {
  const lone = (order.etsyReceiptId === null) !== (order.printifyOrderId === null);
  return {
    match: !order.archived && lone && order.status !== 'matched' && order.status !== 'not_needed',
    unmatch: !order.archived && order.status === 'matched' && order.etsyReceiptId !== null,
    archive: !order.archived,
    restore: order.archived,
  };
}

/** Archives the order; the toast's Undo restores it (a real restore, POST /api/orders/:id/restore). */
export async function archiveWithUndo(order: OrderRowView): Promise<boolean> {
  try {
    await archiveOrder(order.id);
  } catch (caught) {
    toaster.error(changeErrorText(caught, ORDER_MSG.archiveFailed));
    return false;
  }
  toaster.create({
    type: 'success',
    title: 'Success',
    description: ORDER_MSG.archived,
    duration: UNDO_TOAST_MS,
    action: {
      label: 'Undo',
      onClick: () => {
        restoreOrder(order.id).then(
          () => toaster.success(ORDER_MSG.restored),
          (caught: unknown) => toaster.error(changeErrorText(caught, ORDER_MSG.restoreFailed)),
        );
      },
    },
  });
  return true;
}

interface OrderRowActionsProps {
  order: OrderRowView;
  /** xs in a table row, sm on a phone card and in Order Details. */
  size: 'xs' | 'sm';
  /** Buttons share the row's width (phone cards). */
  stretch?: boolean;
  /** After a change took effect (Order Details closes; the lists refresh by themselves). */
  onChanged?: () => void;
  /** Order Details shows its own Unmatch; the row menu is not repeated there. */
  showUnmatch?: boolean;
}

/**
 * An order's changes where the order is (issue 18): Match (the Manual Order Matching dialog) as
 * a button, Unmatch (confirmed) and Archive (with Undo in the toast) under "More actions",
 * Restore for an archived order. The same on every Orders row, phone card and in Order Details.
 */
export function OrderRowActions({ order, size, stretch = false, onChanged, showUnmatch = true }: OrderRowActionsProps) {
  const can = orderActionsOf(order);
  const [matching, setMatching] = useState(false);
  const [confirmingUnmatch, setConfirmingUnmatch] = useState(false);
  const [busy, setBusy] = useState<'archive' | 'restore' | null>(null);
  const product = order.productTitle ?? ORDER_MSG.unknownProduct;
  const flex = stretch ? '1' : undefined;

  const archive = async () => {
    setBusy('archive');
    const done = await archiveWithUndo(order);
    setBusy(null);
    if (done) onChanged?.();
  };
  const restore = async () => {
    setBusy('restore');
    try {
      await restoreOrder(order.id);
      toaster.success(ORDER_MSG.restored);
      onChanged?.();
    } catch (caught) {
      toaster.error(changeErrorText(caught, ORDER_MSG.restoreFailed));
    } finally {
      setBusy(null);
    }
  };
  const menuItems = [
    can.unmatch && showUnmatch && { value: 'unmatch', label: 'Unmatch', run: () => setConfirmingUnmatch(true) },
    can.archive && { value: 'archive', label: 'Archive', run: () => void archive() },
  ].filter((item) => item !== false);

  return (
    <>
      {can.match && (
        <Button
          size={size}
          colorPalette="brand"
          flex={flex}
          onClick={() => setMatching(true)}
          aria-label={`Match ${product}`}
        >
          Match
        </Button>
      )}
      {can.restore && (
        <Button
          size={size}
          variant="subtle"
          colorPalette="brand"
          flex={flex}
          onClick={() => void restore()}
          loading={busy === 'restore'}
          aria-label={`Restore ${product}`}
        >
          Restore
        </Button>
      )}
      {menuItems.length > 0 && (
        <Menu.Root positioning={{ placement: 'bottom-end' }}>
          <Menu.Trigger asChild>
            <IconButton
              size={size}
              variant="outline"
              aria-label={`More actions for ${product}`}
              loading={busy === 'archive'}
            >
              {/* A text ellipsis, not an icon: every icon of react-icons/lu joins the first-load vendor chunk. */}
              <span aria-hidden="true">⋯</span>
            </IconButton>
          </Menu.Trigger>
          <Portal>
            <Menu.Positioner>
              <Menu.Content minW="9rem">
                {menuItems.map((item) => (
                  <Menu.Item
                    key={item.value}
                    value={item.value}
                    onSelect={item.run}
                    color={item.value === 'unmatch' ? 'fg.error' : undefined}
                  >
                    {item.label}
                  </Menu.Item>
                ))}
              </Menu.Content>
            </Menu.Positioner>
          </Portal>
        </Menu.Root>
      )}
      {matching && (
        <ManualMatchDialog
          order={order}
          onClose={() => setMatching(false)}
          onMatched={() => {
            setMatching(false);
            onChanged?.();
          }}
        />
      )}
      {confirmingUnmatch && (
        <UnmatchConfirmDialog
          order={order}
          onClose={() => setConfirmingUnmatch(false)}
          onUnmatched={() => {
            setConfirmingUnmatch(false);
            onChanged?.();
          }}
        />
      )}
    </>
  );
}
