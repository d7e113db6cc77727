import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useDisplayCurrency } from '../../../hooks/useDisplayCurrency';
import { apiError, stubNetwork } from '../../../test/network';
import { recordToasts, renderWithApp } from '../../../test/render';
import { CurrencySettingsCard } from './CurrencySettingsCard';

/** Stands for every money figure on screen: it shows the currency its queries would ask for. */
function FigureCurrency() {
  return <output aria-label="Figures in">{useDisplayCurrency()}</output>;
}

const select = () => screen.getByRole('combobox', { name: 'Display currency' });

describe('Currency Settings card', () => {
  it('offers the three currencies, with the stored choice selected and the spec’s explanation', () => {
    window.localStorage.setItem('preferred-currency', 'GBP');
    renderWithApp(<CurrencySettingsCard />);
    expect(screen.getByRole('heading', { level: 2, name: 'Currency Settings' })).toBeInTheDocument();
    expect(
      screen.getAllByRole('option').map((option) => [(option as HTMLOptionElement).value, option.textContent]),
    ).toEqual([
      ['USD', 'US Dollar ($, USD)'],
      ['EUR', 'Euro (€, EUR)'],
      ['GBP', 'British Pound (£, GBP)'],
    ]);
    expect(select()).toHaveValue('GBP');
    expect(screen.getByText(/historical exchange rate of its order's date/)).toBeInTheDocument();
  });

  it('saves on the account, stores the choice and switches every figure in this tab at once', async () => {
    const calls = stubNetwork(() => ({ status: 200, body: { currency: 'EUR' } }));
    const toasts = recordToasts();
    const { user } = renderWithApp(
      <>
        <CurrencySettingsCard />
        <FigureCurrency />
      </>,
    );
    expect(screen.getByRole('status', { name: 'Figures in' })).toHaveTextContent('USD');
    await user.selectOptions(select(), 'EUR');
    await waitFor(() => expect(toasts).toEqual(['Success: Currency preference updated successfully']));
    expect(calls).toEqual([{ method: 'PATCH', path: '/api/user/settings', body: { currency: 'EUR' } }]);
    expect(window.localStorage.getItem('preferred-currency')).toBe('EUR');
    expect(screen.getByRole('status', { name: 'Figures in' })).toHaveTextContent('EUR');
    expect(select()).toHaveValue('EUR');
  });

  it('says "Failed to update currency preference" and keeps the old currency when saving fails', async () => {
    stubNetwork(() => apiError(503, 'service_unavailable', 'Try again in a moment.'));
    const toasts = recordToasts();
    const { user } = renderWithApp(
      <>
        <CurrencySettingsCard />
        <FigureCurrency />
      </>,
    );
    await user.selectOptions(select(), 'GBP');
    await waitFor(() => expect(toasts).toEqual(['Error: Failed to update currency preference']));
    await waitFor(() => expect(select()).toHaveValue('USD'));
    expect(window.localStorage.getItem('preferred-currency')).toBeNull();
    expect(screen.getByRole('status', { name: 'Figures in' })).toHaveTextContent('USD');
  });
});
