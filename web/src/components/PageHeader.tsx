import { Flex, Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

interface PageHeaderProps {
  title: string;
  subtitle?: ReactNode;
  actions?: ReactNode;
}

/** A page's h1 and subtitle, with optional actions on the right. */
export function PageHeader({ title, subtitle, actions }: PageHeaderProps) {
  return (
    <Flex direction={{ base: 'column', md: 'row' }} justify="space-between" align={{ md: 'flex-end' }} gap="4" mb="8">
      <Stack gap="1">
        <Heading as="h1" size={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
          {title}
        </Heading>
        {subtitle && (
          <Text color="fg.muted" fontSize={{ base: 'sm', md: 'md' }}>
            {subtitle}
          </Text>
        )}
      </Stack>
      {actions}
    </Flex>
  );
}
