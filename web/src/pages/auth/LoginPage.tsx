import { Button, Stack } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { AppLink } from '../../components/ui/link';
import { FormField } from '../../components/FormField';
import { errorMessage } from '../../hooks/api/client';
import { useAuthActions } from '../../hooks/useAuthActions';
import { usePageTitle } from '../../hooks/usePageTitle';
import { AuthCard } from './components/AuthCard';
import { FormAlert } from './components/FormAlert';

export function LoginPage() {
  usePageTitle('Sign In');
  const { signIn } = useAuthActions();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    if (!email.trim() || !password) {
      setError('Please fill in all fields');
      return;
    }
    setPending(true);
    try {
      await signIn({ email: email.trim(), password });
    } catch (err) {
      setError(errorMessage(err, 'Login failed'));
      setPending(false);
    }
  };

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
        <Stack gap="4">
          <FormAlert message={error} />
          <FormField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
          />
          <FormField
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
          <Button type="submit" colorPalette="brand" size="lg" loading={pending} loadingText="Signing in..." mt="2">
            Sign In
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
