import { Box, Card, Center, Heading, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LogoMark } from '../../../components/brand/Logo';

interface AuthCardProps {
  title: string;
  subtitle: string;
  children: ReactNode;
  footer: ReactNode;
}

/** Centered card used by sign-in and sign-up. */
export function AuthCard({ title, subtitle, children, footer }: AuthCardProps) {
  return (
    <Center
      flex="1"
      px="4"
      py={{ base: '8', md: '16' }}
      bgGradient="to-b"
      gradientFrom="brand.subtle"
      gradientTo="bg.canvas"
    >
      <Box w="full" maxW="440px">
        <Card.Root variant="elevated" borderRadius="xl" boxShadow="lg">
          <Card.Header pb="2">
            <Stack gap="3" align="center" textAlign="center">
              <LogoMark size="10" />
              <Heading as="h1" size="2xl" letterSpacing="-0.02em">
                {title}
              </Heading>
              <Text color="fg.muted" fontSize="sm">
                {subtitle}
              </Text>
            </Stack>
          </Card.Header>
          <Card.Body>{children}</Card.Body>
          <Card.Footer justifyContent="center" borderTopWidth="1px" borderColor="border" pt="5">
            <Text fontSize="sm" color="fg.muted">
              {footer}
            </Text>
          </Card.Footer>
        </Card.Root>
      </Box>
    </Center>
  );
}
