import { Button, SimpleGrid, Stack } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { AppLink } from '../../components/ui/link';
import { FormField } from '../../components/FormField';
import { errorMessage } from '../../hooks/api/client';
import type { RegisterInput } from '../../hooks/api/types';
import { useAuthActions } from '../../hooks/useAuthActions';
import { usePageTitle } from '../../hooks/usePageTitle';
import { AuthCard } from './components/AuthCard';
import { FormAlert } from './components/FormAlert';

export const MIN_SIGNUP_PASSWORD_LENGTH = 6;

const emptyForm: RegisterInput = { firstName: '', lastName: '', email: '', password: '', confirmPassword: '' };

/** Spec §5, in order: all fields, passwords match, minimum length. */
export function validateSignup(form: RegisterInput): string | null {
  const values = [form.firstName.trim(), form.lastName.trim(), form.email.trim(), form.password, form.confirmPassword];
  if (values.some((value) => !value)) return 'Please fill in all fields';
  if (form.password !== form.confirmPassword) return "Passwords don't match";
  if (form.password.length < MIN_SIGNUP_PASSWORD_LENGTH) return 'Password must be at least 6 characters long';
  return null;
}

export function SignupPage() {
  usePageTitle('Create Account');
  const { signUp } = useAuthActions();
  const [form, setForm] = useState<RegisterInput>(emptyForm);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const bind = (name: keyof RegisterInput) => ({
    name,
    value: form[name],
    onChange: (e: { target: { value: string } }) => setForm((prev) => ({ ...prev, [name]: e.target.value })),
  });

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    const problem = validateSignup(form);
    if (problem) {
      setError(problem);
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
      setError(errorMessage(err, 'Registration failed'));
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
        <Stack gap="4">
          <FormAlert message={error} />
          <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
            <FormField label="First name" autoComplete="given-name" required {...bind('firstName')} />
            <FormField label="Last name" autoComplete="family-name" required {...bind('lastName')} />
          </SimpleGrid>
          <FormField label="Email" type="email" autoComplete="email" required {...bind('email')} />
          <FormField
            label="Password"
            type="password"
            autoComplete="new-password"
            helperText="Use at least 8 characters."
            required
            {...bind('password')}
          />
          <FormField label="Confirm password" type="password" autoComplete="new-password" required {...bind('confirmPassword')} />
          <Button type="submit" colorPalette="brand" size="lg" loading={pending} loadingText="Creating account..." mt="2">
            Create Account
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
