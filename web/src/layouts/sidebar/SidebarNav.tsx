import { Badge, Box, Flex, Icon, Text, VisuallyHidden } from '@chakra-ui/react';
import { NavLink } from 'react-router-dom';
import { Tooltip } from '../../components/ui/tooltip';
import type { SidebarEntry } from '../../routes';

interface SidebarNavProps {
  entries: SidebarEntry[];
  collapsed?: boolean;
  onNavigate?: () => void;
}

/** What a link and a coming-soon entry share, so both rows line up. */
const NAV_ITEM_LOOK = {
  align: 'center',
  gap: '3',
  px: '3',
  h: '10',
  borderRadius: 'md',
  color: 'fg.muted',
  fontWeight: 'medium',
  fontSize: 'sm',
} as const;

/**
 * A page that is not built yet (Analytics, Settings): listed so the seller knows it is coming,
 * but not a link, since it would only lead to the not-found card. Not focusable (there is
 * nothing to do with it); screen readers read it in the list as "… coming soon".
 */
function ComingSoonItem({ entry, collapsed }: { entry: SidebarEntry; collapsed: boolean }) {
  return (
    <Tooltip content={`${entry.label}: coming soon`} positioning={{ placement: 'right' }} disabled={!collapsed}>
      <Flex
        {...NAV_ITEM_LOOK}
        justifyContent={collapsed ? 'center' : 'flex-start'}
        cursor="default"
        aria-disabled="true"
        data-testid={`nav-soon-${entry.path.slice(1)}`}
      >
        <Icon as={entry.icon} boxSize="5" flexShrink={0} aria-hidden="true" />
        {collapsed ? (
          <VisuallyHidden>{entry.label} (coming soon)</VisuallyHidden>
        ) : (
          <>
            <Text as="span" truncate flex="1">
              {entry.label}
            </Text>
            <Badge size="xs" variant="subtle" colorPalette="gray">
              <VisuallyHidden>(</VisuallyHidden>Coming soon<VisuallyHidden>)</VisuallyHidden>
            </Badge>
          </>
        )}
      </Flex>
    </Tooltip>
  );
}

/** The sidebar's links; NavLink marks the current route with aria-current="page". */
export function SidebarNav({ entries, collapsed = false, onNavigate }: SidebarNavProps) {
  return (
    <Box as="ul" listStyleType="none" display="flex" flexDirection="column" gap="1">
      {entries.map((entry) => (
        <li key={entry.path}>
          {!entry.available ? (
            <ComingSoonItem entry={entry} collapsed={collapsed} />
          ) : (
            <Tooltip content={entry.label} positioning={{ placement: 'right' }} disabled={!collapsed}>
              <Flex
                asChild
                {...NAV_ITEM_LOOK}
                justifyContent={collapsed ? 'center' : 'flex-start'}
                transition="background 0.15s, color 0.15s"
                _hover={{ bg: 'bg.muted', color: 'fg' }}
                _currentPage={{ bg: 'brand.subtle', color: 'brand.fg', _hover: { bg: 'brand.muted' } }}
                focusVisibleRing="inside"
              >
                <NavLink
                  to={entry.path}
                  end={entry.path === '/'}
                  onClick={onNavigate}
                  aria-label={collapsed ? entry.label : undefined}
                >
                  <Icon as={entry.icon} boxSize="5" flexShrink={0} aria-hidden="true" />
                  {!collapsed && (
                    <Text as="span" truncate>
                      {entry.label}
                    </Text>
                  )}
                </NavLink>
              </Flex>
            </Tooltip>
          )}
        </li>
      ))}
    </Box>
  );
}
