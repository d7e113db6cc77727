import { Button, Card, Grid, GridItem, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useRef, useState, type FormEvent } from 'react';
import { LuSend } from 'react-icons/lu';
import { FormField } from '../../components/FormField';
import { PageContainer } from '../../components/PageContainer';
import { PageHeader } from '../../components/PageHeader';
import { toaster } from '../../components/ui/toaster';
import { useCurrentUser } from '../../hooks/api/useCurrentUser';
import { usePublicConfig } from '../../hooks/api/usePublicConfig';
import { usePageTitle } from '../../hooks/usePageTitle';
import { ContactSidePanel } from './components/ContactSidePanel';
import { buildMailtoUrl, newContactForm, validateContact, type ContactErrors, type ContactForm } from './contactForm';

const FIELD_ORDER: (keyof ContactForm)[] = ['name', 'email', 'subject', 'message'];

/** Hands the prepared message to the user's mail program. */
export function openMailClient(url: string) {
  window.location.href = url;
}

export function ContactPage() {
  usePageTitle('Contact');
  const { config, isLoading } = usePublicConfig();
  const { user } = useCurrentUser();
  const [form, setForm] = useState<ContactForm>(() => newContactForm(user));
  // The user may arrive after the first render: fill in the fields they have not typed in.
  const [prefilledFor, setPrefilledFor] = useState(user?.id ?? null);
  if ((user?.id ?? null) !== prefilledFor) {
    setPrefilledFor(user?.id ?? null);
    const prefill = newContactForm(user);
    setForm((prev) => ({ ...prev, name: prev.name || prefill.name, email: prev.email || prefill.email }));
  }
  const [errors, setErrors] = useState<ContactErrors>({});
  const formRef = useRef<HTMLFormElement>(null);

  const bind = (name: keyof ContactForm) => ({
    name,
    value: form[name],
    error: errors[name],
    onChange: (e: { target: { value: string } }) => {
      setForm((prev) => ({ ...prev, [name]: e.target.value }));
      if (errors[name]) setErrors((prev) => ({ ...prev, [name]: undefined }));
    },
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = validateContact(form);
    setErrors(found);
    const firstInvalid = FIELD_ORDER.find((name) => found[name]);
    if (firstInvalid) {
      formRef.current?.querySelector<HTMLElement>(`[name="${firstInvalid}"]`)?.focus();
      return;
    }
    if (!config?.supportEmail) {
      toaster.error('The support address is not available right now. Please try again later.');
      return;
    }
    openMailClient(buildMailtoUrl(config.supportEmail, form));
    toaster.create({
      type: 'success',
      title: 'Email Client Opened',
      description: 'Your mail program should open with the message ready to send.',
    });
    setForm(newContactForm(user));
  };

  return (
    <PageContainer>
      <PageHeader
        title="Contact Us"
        subtitle="Questions, feedback or a problem with your numbers? We're happy to help."
      />
      <Grid templateColumns={{ base: '1fr', lg: '2fr 1fr' }} gap="6" alignItems="start">
        <GridItem>
          <Card.Root borderRadius="xl" boxShadow="xs">
            <Card.Body>
              <Stack gap="1" mb="6">
                <Heading as="h2" size="lg">
                  Send us a message
                </Heading>
                <Text color="fg.muted" fontSize="sm">
                  This opens your mail program with the message filled in. All fields are required.
                </Text>
              </Stack>
              <form ref={formRef} onSubmit={onSubmit} noValidate aria-label="Contact support">
                <Stack gap="4">
                  <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
                    <FormField label="Name" autoComplete="name" required {...bind('name')} />
                    <FormField label="Email" type="email" autoComplete="email" required {...bind('email')} />
                  </SimpleGrid>
                  <FormField label="Subject" required {...bind('subject')} />
                  <FormField label="Message" multiline rows={6} required {...bind('message')} />
                  <Button
                    type="submit"
                    colorPalette="brand"
                    alignSelf={{ base: 'stretch', md: 'flex-start' }}
                    size="lg"
                    disabled={isLoading}
                  >
                    <LuSend /> Send Message
                  </Button>
                </Stack>
              </form>
            </Card.Body>
          </Card.Root>
        </GridItem>
        <GridItem>
          <ContactSidePanel supportEmail={config?.supportEmail} loading={isLoading} />
        </GridItem>
      </Grid>
    </PageContainer>
  );
}
