import { Card, Center, Heading, HStack, Icon, Link, Skeleton, Stack, Text } from '@chakra-ui/react';
import { LuMail } from 'react-icons/lu';

const FAQS = [
  {
    question: 'How do I connect my Etsy shop?',
    answer:
      'Open Connections and choose Connect Etsy. Etsy asks you to approve read access to your shop, then sends you back to PodProfit and your orders start syncing.',
  },
  {
    question: "Why don't some of my orders match?",
    answer:
      'An Etsy order matches automatically when its Printify order names the Etsy receipt, or when buyer, date and items agree closely. Orders created or edited by hand in Printify may need matching yourself on Order Matching.',
  },
  {
    question: 'Can I export my data?',
    answer:
      'Yes. In Settings, Data Management has Export CSV, which downloads your orders, costs and profit in your display currency.',
  },
];

export function ContactSidePanel({ supportEmail, loading }: { supportEmail?: string; loading: boolean }) {
  return (
    <Stack gap="6" as="aside" aria-label="Support details">
      <Card.Root borderRadius="xl" boxShadow="xs">
        <Card.Body gap="3">
          <HStack gap="3">
            <Center boxSize="10" borderRadius="lg" bg="brand.subtle" color="brand.fg">
              <Icon as={LuMail} boxSize="5" aria-hidden="true" />
            </Center>
            <Heading as="h2" size="md">
              Email us directly
            </Heading>
          </HStack>
          <Text color="fg.muted" fontSize="sm">
            Prefer your own mail program? Write to us any time; we usually reply within one business day.
          </Text>
          {loading ? (
            <Skeleton h="5" w="60%" />
          ) : supportEmail ? (
            <Link href={`mailto:${supportEmail}`} color="brand.fg" fontWeight="semibold" data-testid="support-email">
              {supportEmail}
            </Link>
          ) : (
            <Text color="fg.error" fontSize="sm">
              The support address could not be loaded. Please try again later.
            </Text>
          )}
        </Card.Body>
      </Card.Root>
      <Card.Root borderRadius="xl" boxShadow="xs">
        <Card.Body gap="5">
          <Heading as="h2" size="md">
            Frequently asked questions
          </Heading>
          {FAQS.map((faq) => (
            <Stack key={faq.question} gap="1">
              <Heading as="h3" size="sm">
                {faq.question}
              </Heading>
              <Text color="fg.muted" fontSize="sm">
                {faq.answer}
              </Text>
            </Stack>
          ))}
        </Card.Body>
      </Card.Root>
    </Stack>
  );
}
