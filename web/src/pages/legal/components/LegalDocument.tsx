import { Box, Card, Heading, Icon, List, Stack, Text } from '@chakra-ui/react';
import { LuArrowLeft } from 'react-icons/lu';
import { PageContainer } from '../../../components/PageContainer';
import { AppLink } from '../../../components/ui/link';
import { usePageTitle } from '../../../hooks/usePageTitle';
import { FooterLinks, useHasSiteFooter } from '../../../layouts/PublicLayout';

/** The real revision date of both legal documents (not today's date). */
export const LEGAL_LAST_UPDATED = 'November 22, 2026';

/** A paragraph, or a bulleted list when given an array. */
export type LegalBlock = string | string[];

export interface LegalSection {
  heading: string;
  blocks: LegalBlock[];
}

interface LegalDocumentProps {
  title: string;
  intro: string;
  sections: LegalSection[];
}

function slug(text: string) {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/(^-|-$)/g, '');
}

export function LegalDocument({ title, intro, sections }: LegalDocumentProps) {
  usePageTitle(title);
  const hasSiteFooter = useHasSiteFooter();
  return (
    <PageContainer maxW="4xl">
      <AppLink
        to="/"
        color="brand.fg"
        fontWeight="medium"
        fontSize="sm"
        display="inline-flex"
        alignItems="center"
        gap="1.5"
      >
        <Icon as={LuArrowLeft} aria-hidden="true" /> Back to home
      </AppLink>
      <Stack as="header" gap="2" mt="6" mb="8">
        <Heading as="h1" size={{ base: '3xl', md: '4xl' }} letterSpacing="-0.02em">
          {title}
        </Heading>
        <Text color="fg.muted" fontSize="sm" data-testid="last-updated">
          Last updated: {LEGAL_LAST_UPDATED}
        </Text>
      </Stack>
      <Card.Root borderRadius="xl" boxShadow="xs">
        <Card.Body px={{ base: '5', md: '10' }} py={{ base: '6', md: '10' }} gap="8">
          <Text fontSize="md" lineHeight="tall">
            {intro}
          </Text>
          {sections.map((section, index) => (
            <Box as="section" key={section.heading} aria-labelledby={slug(section.heading)}>
              <Heading as="h2" size="lg" id={slug(section.heading)} mb="3">
                {index + 1}. {section.heading}
              </Heading>
              <Stack gap="3" color="fg.muted" lineHeight="tall">
                {section.blocks.map((block, blockIndex) =>
                  Array.isArray(block) ? (
                    <List.Root key={blockIndex} ps="5" gap="1.5">
                      {block.map((item) => (
                        <List.Item key={item}>{item}</List.Item>
                      ))}
                    </List.Root>
                  ) : (
                    <Text key={blockIndex}>{block}</Text>
                  ),
                )}
              </Stack>
            </Box>
          ))}
        </Card.Body>
      </Card.Root>
      {!hasSiteFooter && (
        <Box as="nav" aria-label="Legal" mt="8" pt="6" borderTopWidth="1px" borderColor="border">
          <FooterLinks />
        </Box>
      )}
    </PageContainer>
  );
}
