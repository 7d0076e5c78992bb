import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { QueryState } from '@/components/query-state';
import { HOLDING_PERIOD_UPDATED_MESSAGE, HOLDING_PERIOD_UPDATE_FAILED_MESSAGE } from '../api/admin-messages';
import { wholeNumberSetting } from '../api/whole-number-setting';
import { holdingPeriodFormSchema } from './setting-form-schemas';
import { WholeNumberSettingForm } from './whole-number-setting-form';

/** Days a coin must be held for its sale to be long-term in the gains report. */
const longTermAfterDays = wholeNumberSetting('long_term_after_days', {
  failedMessage: HOLDING_PERIOD_UPDATE_FAILED_MESSAGE,
});

/**
 * /admin/settings: the holding period after which a sale is long-term in everyone's gains report (365 days by
 * default), read by the report as it is built, so a change shows in every report at once.
 */
export function HoldingPeriodCard() {
  const days = longTermAfterDays.useValue();
  return (
    <Card className="max-w-xl">
      <CardHeader>
        <CardTitle>Holding period for gains</CardTitle>
        <CardDescription>
          A sale is long-term when the coins were held more than this many days (from the day acquired to the
          day sold, in the person&apos;s tax time zone); short-term otherwise.
        </CardDescription>
      </CardHeader>
      <CardContent aria-busy={days.isPending}>
        <QueryState
          query={days}
          placeholder={<Skeleton className="h-16 w-full" aria-hidden />}
          errorMessage="Failed to load the holding period"
        >
          {(current) => (
            <WholeNumberSettingForm
              setting={longTermAfterDays}
              current={current}
              schema={holdingPeriodFormSchema}
              label="Long-term after (days held)"
              formLabel="Holding period"
              saveLabel="Save holding period"
              savedMessage={HOLDING_PERIOD_UPDATED_MESSAGE}
            />
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
