import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, stubNetwork } from '../../../test/network';
import { recordToasts, renderWithApp } from '../../../test/render';
import { ChangePasswordForm } from './ChangePasswordForm';

const field = (name: string) => screen.getByLabelText(name);
const changeButton = () => screen.getByRole('button', { name: 'Change' });

async function fill(
  user: ReturnType<typeof renderWithApp>['user'],
  values: { current?: string; next?: string; confirm?: string },
) {
  if (values.current) await user.type(field('Current password'), values.current);
  if (values.next) await user.type(field('New password'), values.next);
  if (values.confirm) await user.type(field('Confirm new password'), values.confirm);
}

describe('Change Password form', () => {
  it('keeps Change disabled until all three fields are filled', async () => {
    const { user } = renderWithApp(<ChangePasswordForm />);
    expect(changeButton()).toBeDisabled();
    await fill(user, { current: 'Old-pass-1', next: 'New-pass-12' });
    expect(changeButton()).toBeDisabled();
    await fill(user, { confirm: 'N' });
    expect(changeButton()).toBeEnabled();
  });

  it('checks that the new passwords match first, then their length, before asking the server', async () => {
    const calls = stubNetwork(() => ({ status: 200, body: { ok: true } }));
    const toasts = recordToasts();
    const { user } = renderWithApp(<ChangePasswordForm />);
    // Both wrong (short and different): the mismatch is what is said.
    await fill(user, { current: 'Old-pass-1', next: 'short', confirm: 'shorT' });
    await user.click(changeButton());
    expect(screen.getByText('New passwords do not match')).toBeInTheDocument();
    await user.clear(field('Confirm new password'));
    await user.type(field('Confirm new password'), 'short');
    await user.click(changeButton());
    expect(screen.getByText('Password must be at least 8 characters long')).toBeInTheDocument();
    // The mismatch message under the confirm field is gone (the toast region is outside the form).
    expect(
      within(screen.getByRole('form', { name: 'Change Password' })).queryByText('New passwords do not match'),
    ).toBeNull();
    expect(toasts).toEqual(['Error: New passwords do not match', 'Error: Password must be at least 8 characters long']);
    expect(calls).toEqual([]);
  });

  it('changes the password, says so and clears the fields', async () => {
    const calls = stubNetwork(() => ({ status: 200, body: { ok: true } }));
    const toasts = recordToasts();
    const { user } = renderWithApp(<ChangePasswordForm />);
    await fill(user, { current: 'Old-pass-1', next: 'Brand-new-9', confirm: 'Brand-new-9' });
    await user.click(changeButton());
    await waitFor(() => expect(toasts).toEqual(['Success: Password changed successfully']));
    expect(calls).toEqual([
      {
        method: 'POST',
        path: '/api/user/change-password',
        body: { currentPassword: 'Old-pass-1', newPassword: 'Brand-new-9' },
      },
    ]);
    for (const name of ['Current password', 'New password', 'Confirm new password'])
      expect(field(name)).toHaveValue('');
    expect(changeButton()).toBeDisabled();
  });

  it('says "Failed to change password" with the server’s reason, and keeps what was typed', async () => {
    stubNetwork(() => apiError(400, 'wrong_current_password', 'Current password is incorrect', 'currentPassword'));
    const toasts = recordToasts();
    const { user } = renderWithApp(<ChangePasswordForm />);
    await fill(user, { current: 'Not-it-1', next: 'Brand-new-9', confirm: 'Brand-new-9' });
    await user.click(changeButton());
    await waitFor(() => expect(toasts).toEqual(['Error: Failed to change password: Current password is incorrect']));
    expect(screen.getByText('Current password is incorrect')).toBeInTheDocument();
    expect(field('New password')).toHaveValue('Brand-new-9');
  });

  it('says just "Failed to change password" when the answer carries no reason', async () => {
    stubNetwork(() => ({ status: 502 }));
    const toasts = recordToasts();
    const { user } = renderWithApp(<ChangePasswordForm />);
    await fill(user, { current: 'Old-pass-1', next: 'Brand-new-9', confirm: 'Brand-new-9' });
    await user.click(changeButton());
    await waitFor(() => expect(toasts).toEqual(['Error: Failed to change password']));
  });
});
