import { Field, NativeSelect, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import type { DisplayCurrencyCode } from '@pod/domain';
import { toaster } from '../../../components/ui/toaster';
import { saveDisplayCurrency } from '../../../hooks/api/accountSettings';
import { useCurrentUser } from '../../../hooks/api/useCurrentUser';
import { useDisplayCurrency, writeDisplayCurrency } from '../../../hooks/useDisplayCurrency';
import { SettingsCard } from './SettingsCard';

/** Spec §2 Settings: the currencies offered and how they read. */
export const CURRENCY_OPTIONS: { code: DisplayCurrencyCode; label: string }[] = [
  { code: 'USD', label: 'US Dollar ($, USD)' },
  { code: 'EUR', label: 'Euro (€, EUR)' },
  { code: 'GBP', label: 'British Pound (£, GBP)' },
];

/**
 * Currency Settings: the display currency, saved on the account (so it follows the seller to
 * other browsers) and in this browser, where every money figure on screen switches at once.
 */
export function CurrencySettingsCard() {
  const currency = useDisplayCurrency();
  const { user, mutate } = useCurrentUser();
  const [saving, setSaving] = useState<DisplayCurrencyCode | null>(null);

  const onChange = async (next: DisplayCurrencyCode) => {
    if (next === currency || saving) return;
    setSaving(next);
    try {
      await saveDisplayCurrency(next);
      writeDisplayCurrency(next);
      if (user) await mutate({ ...user, currency: next }, { revalidate: false });
      toaster.success('Currency preference updated successfully');
    } catch {
      toaster.error('Failed to update currency preference');
    } finally {
      setSaving(null);
    }
  };

  return (
    <SettingsCard
      title="Currency Settings"
      description="Choose the currency every amount in PodProfit is shown in."
      testId="currency-settings-card"
    >
      <Stack gap="4">
        <Field.Root disabled={saving !== null} maxW={{ md: 'md' }}>
          <Field.Label fontWeight="medium">Display currency</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              name="currency"
              value={saving ?? currency}
              onChange={(event) => void onChange(event.target.value as DisplayCurrencyCode)}
              aria-busy={saving !== null}
            >
              {CURRENCY_OPTIONS.map((option) => (
                <option key={option.code} value={option.code}>
                  {option.label}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <Field.HelperText>
            Printify charges in US dollars and your Etsy shop may sell in another currency: each amount is converted at
            the historical exchange rate of its order&apos;s date, so past orders keep the value they had.
          </Field.HelperText>
        </Field.Root>
      </Stack>
    </SettingsCard>
  );
}
