import { Button, CloseButton, Dialog, Portal, Text } from '@chakra-ui/react';
import { useState } from 'react';
import type { OrderRowView } from '@pod/contracts';
import { unmatchOrder } from '../../hooks/api/orderActions';
import { toaster } from '../ui/toaster';
import { changeErrorText, ORDER_MSG } from './orderText';

interface UnmatchConfirmDialogProps {
  order: OrderRowView;
  onClose: () => void;
  onUnmatched: () => void;
}

/**
 * "Unmatch this order?" (issue 18): unmatching takes the order's Printify cost and profit away
 * until it is matched again, so the seller confirms it, told what happens.
 */
export function UnmatchConfirmDialog({ order, onClose, onUnmatched }: UnmatchConfirmDialogProps) {
  const [unmatching, setUnmatching] = useState(false);
  const extra = order.extraPrintifyOrders?.length ?? 0;
  const printify =
    extra > 0 ? `its ${extra + 1} Printify orders` : `Printify order ${order.printifyOrderId ?? ''}`.trim();

  const unmatch = async () => {
    setUnmatching(true);
    try {
      await unmatchOrder(order.id);
      toaster.success(ORDER_MSG.unmatched);
      onUnmatched();
    } catch (caught) {
      toaster.error(changeErrorText(caught, ORDER_MSG.unmatchFailed));
      setUnmatching(false);
    }
  };

  return (
    <Dialog.Root
      open
      role="alertdialog"
      placement="center"
      onOpenChange={(change) => {
        if (!change.open && !unmatching) onClose();
      }}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>Unmatch this order?</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Text>
                Etsy receipt {order.etsyReceiptId} and {printify} become separate unmatched orders. Their profit is not
                counted until you match them again; automatic matching will not pair them again by itself.
              </Text>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose} disabled={unmatching}>
                Cancel
              </Button>
              <Button
                colorPalette="red"
                onClick={() => void unmatch()}
                loading={unmatching}
                loadingText="Unmatching..."
              >
                Unmatch
              </Button>
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" disabled={unmatching} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
