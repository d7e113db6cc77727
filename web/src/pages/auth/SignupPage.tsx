import { Button, SimpleGrid, Stack } from '@chakra-ui/react';
import { useId, useState, type FormEvent } from 'react';
import { AppLink } from '../../components/ui/link';
import { FormField } from '../../components/FormField';
import type { RegisterInput } from '../../hooks/api/types';
import { useAuthActions } from '../../hooks/useAuthActions';
import { usePageTitle } from '../../hooks/usePageTitle';
import { AuthCard } from './components/AuthCard';
import { FormAlert } from './components/FormAlert';
import { signupProblem, validateSignup, type FormProblem, type SignupField } from './formProblems';
import { PASSWORD_HINT } from './passwordRule';

const emptyForm: RegisterInput = { firstName: '', lastName: '', email: '', password: '', confirmPassword: '' };

export function SignupPage() {
  usePageTitle('Create Account');
  const { signUp } = useAuthActions();
  const alertId = useId();
  const [form, setForm] = useState<RegisterInput>(emptyForm);
  const [problem, setProblem] = useState<FormProblem<SignupField> | null>(null);
  const [pending, setPending] = useState(false);

  const bind = (name: SignupField) => ({
    name,
    value: form[name],
    onChange: (e: { target: { value: string } }) => setForm((prev) => ({ ...prev, [name]: e.target.value })),
    invalid: problem?.fields.includes(name) ?? false,
    describedBy: problem?.fields.includes(name) ? alertId : undefined,
  });

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblem(null);
    const invalid = validateSignup(form);
    if (invalid) {
      setProblem(invalid);
      return;
    }
    setPending(true);
    try {
      await signUp({
        ...form,
        firstName: form.firstName.trim(),
        lastName: form.lastName.trim(),
        email: form.email.trim(),
      });
    } catch (err) {
      setProblem(signupProblem(err, form));
      setPending(false);
    }
  };

  return (
    <AuthCard
      title="Create Account"
      subtitle="Start tracking the real profit of your print-on-demand shop."
      footer={
        <>
          Already have an account?{' '}
          <AppLink to="/login" color="brand.fg" fontWeight="semibold">
            Sign in
          </AppLink>
        </>
      }
    >
      <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Create account">
        <FormAlert id={alertId} message={problem?.message ?? null} />
        <Stack gap="4">
          <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
            <FormField label="First name" autoComplete="given-name" required {...bind('firstName')} />
            <FormField label="Last name" autoComplete="family-name" required {...bind('lastName')} />
          </SimpleGrid>
          <FormField label="Email" type="email" autoComplete="email" required {...bind('email')} />
          <FormField
            label="Password"
            type="password"
            autoComplete="new-password"
            helperText={PASSWORD_HINT}
            required
            {...bind('password')}
          />
          <FormField
            label="Confirm password"
            type="password"
            autoComplete="new-password"
            required
            {...bind('confirmPassword')}
          />
          <Button
            type="submit"
            colorPalette="brand"
            size="lg"
            loading={pending}
            loadingText="Creating account..."
            mt="2"
          >
            Create Account
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
