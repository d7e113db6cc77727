import { Flex, Icon, Progress, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import type { IconType } from 'react-icons';
import { LuCircleAlert, LuCircleCheck, LuCirclePause, LuClock, LuHourglass } from 'react-icons/lu';
import type { Provider, SyncRunStatus, SyncRunView } from '@pod/contracts';
import { describeRun, formatWhen, PROVIDER_LABEL, type RunTone } from './syncRunText';

interface SyncRunProgressProps {
  provider: Provider;
  /** The provider's latest run (GET /api/sync/status), or null when none ever ran. */
  run: SyncRunView | null;
  /** The connection's last successful sync (GET /api/connections/status). */
  lastSync: string | null;
  /**
   * A header with the provider's name and the last sync (the Dashboard); a Connections card has
   * its own title and "Last sync" row.
   */
  showHeader?: boolean;
  /** Shown under a failed run's reason (e.g. a link to reconnect). */
  failureAction?: ReactNode;
}

const TONE_COLOR: Record<RunTone, string> = {
  active: 'fg',
  waiting: 'fg.warning',
  done: 'fg.success',
  error: 'fg.error',
  stopped: 'fg.muted',
};

/** A running run has its bar instead. */
const STATUS_ICON: Record<SyncRunStatus, IconType | null> = {
  queued: LuHourglass,
  running: null,
  waiting_for_quota: LuClock,
  succeeded: LuCircleCheck,
  failed: LuCircleAlert,
  interrupted: LuCirclePause,
};

// Without motion (prefers-reduced-motion) an indeterminate bar would stand still at half width,
// reading as "50%": it fills the track, faintly, instead.
const INDETERMINATE_STILL = {
  '&[data-state=indeterminate]': {
    _motionReduce: { animation: 'none', minWidth: '100%', backgroundImage: 'none', opacity: 0.35 },
  },
};

/**
 * One provider's sync run: a progress bar while it is active (determinate when the provider gave
 * totals, else indeterminate), the pages and orders done so far, the daily-quota wait with the
 * time it resumes, the reason a run failed, or the orders a finished run synced. The state line
 * is a polite live region, so a screen reader hears each change of state (not every page).
 */
export function SyncRunProgress({ provider, run, lastSync, showHeader = false, failureAction }: SyncRunProgressProps) {
  const label = PROVIDER_LABEL[provider];
  const text = run ? describeRun(run) : null;
  // A bar while the run works; a waiting one keeps it only when its share is known (a moving bar would suggest work).
  const showBar =
    run !== null && (run.status === 'running' || (run.status === 'waiting_for_quota' && run.percent !== null));
  const lastSyncText = lastSync ? `Last sync ${formatWhen(lastSync)}` : null;
  const toneIcon = run ? STATUS_ICON[run.status] : null;

  return (
    <Stack gap="1.5" data-testid={`sync-run-${provider}`} data-status={run?.status ?? 'none'}>
      {showHeader && (
        <Flex justify="space-between" align="baseline" gap="2" wrap="wrap">
          <Text fontWeight="semibold">{label}</Text>
          {lastSyncText && (
            <Text fontSize="xs" color="fg.muted" data-testid={`sync-last-${provider}`}>
              {lastSyncText}
            </Text>
          )}
        </Flex>
      )}
      <Flex
        role="status"
        aria-atomic="true"
        align="center"
        gap="1.5"
        fontSize="sm"
        fontWeight="medium"
        color={text ? TONE_COLOR[text.tone] : 'fg.muted'}
      >
        {toneIcon && <Icon as={toneIcon} boxSize="4" flexShrink={0} aria-hidden="true" />}
        {text ? (
          <Text as="span" data-testid={`sync-headline-${provider}`}>
            <VisuallyHidden>{label}: </VisuallyHidden>
            {text.headline}
          </Text>
        ) : (
          !lastSync && (
            <Text as="span" fontWeight="normal" data-testid={`sync-headline-${provider}`}>
              <VisuallyHidden>{label}: </VisuallyHidden>
              Not synced yet
            </Text>
          )
        )}
      </Flex>
      {showBar && run && (
        <Progress.Root
          value={run.percent}
          max={100}
          size="sm"
          colorPalette={run.status === 'waiting_for_quota' ? 'orange' : 'brand'}
        >
          <Progress.Track
            aria-label={`${label} sync progress`}
            aria-valuetext={run.percent === null ? text?.headline : `${run.percent}%`}
            borderRadius="full"
          >
            <Progress.Range css={INDETERMINATE_STILL} />
          </Progress.Track>
        </Progress.Root>
      )}
      {text?.detail && (
        <Text fontSize="sm" color="fg.muted" data-testid={`sync-detail-${provider}`}>
          {text.detail}
        </Text>
      )}
      {run?.status === 'failed' && failureAction}
    </Stack>
  );
}
