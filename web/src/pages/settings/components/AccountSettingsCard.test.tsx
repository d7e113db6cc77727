import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, stubNetwork } from '../../../test/network';
import { recordToasts, renderWithApp, TEST_USER } from '../../../test/render';
import { AccountSettingsCard } from './AccountSettingsCard';

const openChangeEmail = async (user: ReturnType<typeof renderWithApp>['user']) => {
  await user.click(screen.getByRole('button', { name: 'Change Email' }));
  return screen.getByRole('form', { name: 'Change Email' });
};

describe('Account Settings: Change Email', () => {
  it('shows the current email and changes it with the current password', async () => {
    const calls = stubNetwork(() => ({ status: 200, body: { email: 'new.address@example.com' } }));
    const toasts = recordToasts();
    const { user } = renderWithApp(<AccountSettingsCard />);
    expect(screen.getByLabelText('Email')).toHaveValue(TEST_USER.email);
    await openChangeEmail(user);
    expect(screen.getByLabelText('New email')).toHaveFocus();
    await user.type(screen.getByLabelText('New email'), ' New.Address@example.com ');
    await user.type(screen.getAllByLabelText('Current password')[0], 'Old-pass-1');
    await user.click(screen.getByRole('button', { name: 'Save Email' }));
    await waitFor(() => expect(toasts).toEqual(['Success: Email changed successfully']));
    expect(calls).toEqual([
      {
        method: 'POST',
        path: '/api/user/change-email',
        body: { email: 'New.Address@example.com', currentPassword: 'Old-pass-1' },
      },
    ]);
    expect(screen.getByLabelText('Email')).toHaveValue('new.address@example.com');
    expect(screen.queryByRole('form', { name: 'Change Email' })).toBeNull();
  });

  it('checks the format and the password before asking the server', async () => {
    const calls = stubNetwork(() => ({ status: 200, body: {} }));
    const { user } = renderWithApp(<AccountSettingsCard />);
    await openChangeEmail(user);
    await user.click(screen.getByRole('button', { name: 'Save Email' }));
    expect(screen.getByText('Please enter your new email')).toBeInTheDocument();
    await user.type(screen.getByLabelText('New email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Save Email' }));
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('New email'));
    await user.type(screen.getByLabelText('New email'), 'fine@example.com');
    await user.click(screen.getByRole('button', { name: 'Save Email' }));
    expect(screen.getByText('Please enter your current password')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('says when the email is already in use, under the field and in the error toast', async () => {
    stubNetwork(() => apiError(409, 'conflict_email_taken', 'That email is already in use', 'email'));
    const toasts = recordToasts();
    const { user } = renderWithApp(<AccountSettingsCard />);
    await openChangeEmail(user);
    await user.type(screen.getByLabelText('New email'), 'taken@example.com');
    await user.type(screen.getAllByLabelText('Current password')[0], 'Old-pass-1');
    await user.click(screen.getByRole('button', { name: 'Save Email' }));
    await waitFor(() => expect(toasts).toEqual(['Error: Failed to change email: That email is already in use']));
    expect(screen.getByText('That email is already in use')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue(TEST_USER.email);
  });

  it('lets a demo account change neither its email nor its password, and says why', () => {
    renderWithApp(<AccountSettingsCard />, { user: { ...TEST_USER, isDemo: true } });
    expect(screen.getByTestId('demo-credentials-note')).toHaveTextContent('its email and password cannot be changed');
    expect(screen.getByRole('button', { name: 'Change Email' })).toBeDisabled();
    expect(screen.getByLabelText('New password')).toBeDisabled();
  });
});
