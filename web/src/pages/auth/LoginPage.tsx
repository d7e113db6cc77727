import { Button, Stack } from '@chakra-ui/react';
import { useId, useState, type FormEvent } from 'react';
import { AppLink } from '../../components/ui/link';
import { FormField } from '../../components/FormField';
import { useAuthActions } from '../../hooks/useAuthActions';
import { usePageTitle } from '../../hooks/usePageTitle';
import { AuthCard } from './components/AuthCard';
import { FormAlert } from './components/FormAlert';
import { loginProblem, validateLogin, type FormProblem, type LoginField } from './formProblems';

export function LoginPage() {
  usePageTitle('Sign In');
  const { signIn } = useAuthActions();
  const alertId = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [problem, setProblem] = useState<FormProblem<LoginField> | null>(null);
  const [pending, setPending] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setProblem(null);
    const invalid = validateLogin({ email, password });
    if (invalid) {
      setProblem(invalid);
      return;
    }
    setPending(true);
    try {
      await signIn({ email: email.trim(), password });
    } catch (err) {
      setProblem(loginProblem(err));
      setPending(false);
    }
  };

  const flagged = (name: LoginField) => ({
    invalid: problem?.fields.includes(name) ?? false,
    describedBy: problem?.fields.includes(name) ? alertId : undefined,
  });

  return (
    <AuthCard
      title="Sign In"
      subtitle="Welcome back. Sign in to see your profit."
      footer={
        <>
          Don&apos;t have an account?{' '}
          <AppLink to="/signup" color="brand.fg" fontWeight="semibold">
            Sign up
          </AppLink>
        </>
      }
    >
      <form onSubmit={(event) => void onSubmit(event)} noValidate aria-label="Sign in">
        <FormAlert id={alertId} message={problem?.message ?? null} />
        <Stack gap="4">
          <FormField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
            {...flagged('email')}
          />
          <FormField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
            {...flagged('password')}
          />
          <Button type="submit" colorPalette="brand" size="lg" loading={pending} loadingText="Signing in..." mt="2">
            Sign In
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
