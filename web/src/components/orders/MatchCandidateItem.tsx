import { Box, Button, Flex, Stack, Text } from '@chakra-ui/react';
import { useEffect, useRef } from 'react';
import type { CandidateFit, OrderRowView } from '@pod/contracts';
import { MoneyText } from '../money/MoneyText';
import { fitPercent, lowFitText } from './fitText';
import { SourceBadge } from './OrderBadges';
import { MatchOrderSummary } from './MatchOrderSummary';
import { ORDER_MSG } from './orderText';

interface MatchCandidateItemProps {
  selected: OrderRowView;
  candidate: OrderRowView;
  fit: CandidateFit;
  lowFit: boolean;
  /** The seller pressed Match on this low fit: ask before matching, saying why. */
  confirming: boolean;
  matching: boolean;
  disabled: boolean;
  onMatch: () => void;
  onConfirm: () => void;
  onCancel: () => void;
}

/** One potential match: the order, its fit (a low one marked), Match, and the low-fit confirmation. */
export function MatchCandidateItem(props: MatchCandidateItemProps) {
  const { selected, candidate, fit, lowFit, confirming, matching, disabled } = props;
  const cancelRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) cancelRef.current?.focus();
  }, [confirming]);
  const name = `${candidate.productTitle ?? ORDER_MSG.unknownProduct}, ${candidate.customerName ?? ORDER_MSG.unknownCustomer}`;
  return (
    <Box
      as="li"
      borderWidth="1px"
      borderColor={confirming ? 'orange.emphasized' : 'border.muted'}
      borderRadius="lg"
      p="3"
    >
      <Flex gap="3" align="center">
        <Stack gap="1" flex="1" minW="0">
          <MatchOrderSummary order={candidate} />
          <Flex gap="2" align="center" wrap="wrap" fontSize="sm">
            <SourceBadge source={candidate.source} />
            <Text color={lowFit ? 'orange.fg' : 'fg.muted'} fontWeight={lowFit ? 'medium' : undefined}>
              {fitPercent(fit.score)}
            </Text>
            {lowFit && (
              <Text color="orange.fg" fontSize="xs">
                low
              </Text>
            )}
            {candidate.revenue && <MoneyText value={candidate.revenue} figures={candidate.figures} fontSize="sm" />}
            {!candidate.revenue && candidate.cost && (
              <MoneyText value={candidate.cost} figures={candidate.figures} fontSize="sm" />
            )}
          </Flex>
        </Stack>
        {!confirming && (
          <Button
            size="sm"
            colorPalette="brand"
            variant={lowFit ? 'outline' : 'solid'}
            onClick={props.onMatch}
            loading={matching}
            disabled={disabled}
            aria-label={`Match with ${name}`}
          >
            Match
          </Button>
        )}
      </Flex>
      {confirming && (
        <Stack role="alert" gap="2" mt="3" p="3" borderRadius="md" bg="orange.subtle" data-testid="low-fit-confirm">
          <Text fontSize="sm">{lowFitText(fit, selected, candidate)}</Text>
          <Flex gap="2" justify="flex-end" wrap="wrap">
            <Button ref={cancelRef} size="sm" variant="outline" onClick={props.onCancel} disabled={matching}>
              Cancel
            </Button>
            <Button
              size="sm"
              colorPalette="orange"
              onClick={props.onConfirm}
              loading={matching}
              aria-label={`Match anyway with ${name}`}
            >
              Match anyway
            </Button>
          </Flex>
        </Stack>
      )}
    </Box>
  );
}
