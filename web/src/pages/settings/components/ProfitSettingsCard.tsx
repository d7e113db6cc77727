import { Alert, Button, Card, Field, Heading, NativeSelect, Skeleton, Stack, Switch, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import type { PrintifyCostReading, ProfitSettingsResponse } from '@pod/contracts';
import { LoadError } from '../../../components/orders/LoadError';
import { errorMessage } from '../../../hooks/api/client';
import { saveProfitSettings, useProfitSettings } from '../../../hooks/api/useProfitSettings';

const READINGS: { value: PrintifyCostReading; label: string; help: string }[] = [
  {
    value: 'per_unit',
    label: 'Per unit (cost × quantity)',
    help: "Each line's cost is for one item, so it is multiplied by the line's quantity.",
  },
  {
    value: 'per_line',
    label: 'Per line (cost as sent)',
    help: "Each line's cost is already for every item on the line.",
  },
];

type SaveState = { kind: 'idle' } | { kind: 'saved'; recalculating: boolean } | { kind: 'error'; message: string };

/**
 * The "Profit settings" card: whether the seller is VAT-registered (VAT on Etsy's fees is then
 * reclaimed, not a cost) and how Printify's line cost is read. Saving re-figures every order.
 */
export function ProfitSettingsCard() {
  const { settings, error, isLoading, mutate } = useProfitSettings();
  return (
    <Card.Root
      as="section"
      aria-labelledby="profit-settings-heading"
      borderRadius="xl"
      boxShadow="xs"
      data-testid="profit-settings-card"
    >
      <Card.Header>
        <Heading as="h2" size="lg" id="profit-settings-heading">
          Profit settings
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          These change how every order&apos;s profit is figured.
        </Text>
      </Card.Header>
      <Card.Body>
        {error ? (
          <LoadError title="Your profit settings could not be loaded" error={error} onRetry={() => void mutate()} />
        ) : isLoading || !settings ? (
          <Stack gap="4" aria-busy="true">
            <Skeleton height="10" />
            <Skeleton height="20" />
          </Stack>
        ) : (
          <ProfitSettingsForm settings={settings} onSaved={(saved) => void mutate(saved, { revalidate: false })} />
        )}
      </Card.Body>
    </Card.Root>
  );
}

function ProfitSettingsForm({
  settings,
  onSaved,
}: {
  settings: ProfitSettingsResponse;
  onSaved: (saved: ProfitSettingsResponse) => void;
}) {
  const [vatRegistered, setVatRegistered] = useState(settings.vatRegistered);
  const [reading, setReading] = useState<PrintifyCostReading>(settings.printifyCostReading);
  const [saving, setSaving] = useState(false);
  const [state, setState] = useState<SaveState>({ kind: 'idle' });
  const changed = vatRegistered !== settings.vatRegistered || reading !== settings.printifyCostReading;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!changed || saving) return;
    setSaving(true);
    setState({ kind: 'idle' });
    try {
      const saved = await saveProfitSettings({
        ...(vatRegistered !== settings.vatRegistered ? { vatRegistered } : {}),
        ...(reading !== settings.printifyCostReading ? { printifyCostReading: reading } : {}),
      });
      onSaved(saved);
      setState({ kind: 'saved', recalculating: saved.recalculating === true });
    } catch (failure) {
      setState({
        kind: 'error',
        message: errorMessage(failure, 'Your settings could not be saved. Please try again.'),
      });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form onSubmit={(event) => void onSubmit(event)} aria-describedby="profit-settings-status">
      <Stack gap="6">
        <Stack gap="1">
          <Switch.Root
            checked={vatRegistered}
            onCheckedChange={(details) => setVatRegistered(details.checked)}
            disabled={!settings.etsyConnected || saving}
            colorPalette="brand"
            data-testid="vat-registered-switch"
          >
            <Switch.HiddenInput />
            <Switch.Control>
              <Switch.Thumb />
            </Switch.Control>
            <Switch.Label fontWeight="medium">I am VAT-registered</Switch.Label>
          </Switch.Root>
          <Text color="fg.muted" fontSize="sm" pl="12">
            {settings.etsyConnected
              ? 'Turn on if you reclaim VAT: the VAT Etsy adds to its fees is then not counted as a cost.'
              : 'Connect your Etsy shop to set this.'}
          </Text>
        </Stack>

        <Field.Root disabled={!settings.printifyConnected || saving} maxW={{ md: 'md' }}>
          <Field.Label fontWeight="medium">Printify cost reading</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field
              name="printifyCostReading"
              value={reading}
              onChange={(event) => setReading(event.target.value as PrintifyCostReading)}
              data-testid="printify-cost-reading"
            >
              {READINGS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <Field.HelperText>
            {settings.printifyConnected
              ? READINGS.find((option) => option.value === reading)?.help
              : 'Connect your Printify account to set this.'}
          </Field.HelperText>
        </Field.Root>

        <Stack direction={{ base: 'column', sm: 'row' }} gap="4" align={{ sm: 'center' }}>
          <Button type="submit" colorPalette="brand" loading={saving} loadingText="Saving" disabled={!changed}>
            Save
          </Button>
          <SaveStatus state={state} />
        </Stack>
      </Stack>
    </form>
  );
}

function SaveStatus({ state }: { state: SaveState }) {
  return (
    <div id="profit-settings-status" role="status" aria-live="polite">
      {state.kind === 'saved' && (
        <Alert.Root status="success" borderRadius="md" py="2" data-testid="profit-settings-saved">
          <Alert.Indicator />
          <Alert.Title fontWeight="normal">
            {state.recalculating
              ? 'Saved. Your orders are being recalculated; figures update in a minute or two.'
              : 'Saved. Nothing changed.'}
          </Alert.Title>
        </Alert.Root>
      )}
      {state.kind === 'error' && (
        <Alert.Root status="error" borderRadius="md" py="2" data-testid="profit-settings-error">
          <Alert.Indicator />
          <Alert.Title fontWeight="normal">{state.message}</Alert.Title>
        </Alert.Root>
      )}
    </div>
  );
}
