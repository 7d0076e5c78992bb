import { FileTextIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { NativeSelect } from '@/components/ui/native-select';
import { ErrorMessage } from '@/components/error-message';
import { QueryState } from '@/components/query-state';
import { Skeleton } from '@/components/ui/skeleton';
import { useChooseCostBasisMethod } from '../api/choose-cost-basis-method';
import {
  methodForYear,
  TAX_SETTINGS_FAILED_MESSAGE,
  useTaxSettings,
  type CostBasisMethod,
  type TaxSettings,
} from '../api/get-tax-settings';
import { useSetTaxTimeZone } from '../api/set-tax-time-zone';
import { methodNames } from './method-names';
import { taxYearIn } from '../utils/tax-year';

const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
const isMethod = (value: string): value is CostBasisMethod => value in methodNames;

function CostBasisForm({ userId, settings }: { userId: string; settings: TaxSettings }) {
  const thisYear = taxYearIn(settings.timeZone);
  const nextYearMethod = methodForYear(settings.elections, thisYear + 1);
  const [method, setMethod] = useState<CostBasisMethod>(nextYearMethod);
  const choose = useChooseCostBasisMethod(userId);
  const setTimeZone = useSetTaxTimeZone(userId);
  const browserZone = browserTimeZone();

  return (
    <CardContent className="grid gap-4">
      <p>
        This tax year ({thisYear}):{' '}
        <strong>{methodNames[methodForYear(settings.elections, thisYear)]}</strong>. From {thisYear + 1}:{' '}
        <strong data-testid="next-year-method">{methodNames[nextYearMethod]}</strong>.
      </p>
      <form
        className="flex flex-wrap items-end gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          choose.mutate(method);
        }}
      >
        <FormField label={`Method from ${thisYear + 1}`} className="w-full min-[480px]:w-72">
          {(control) => (
            <NativeSelect
              {...control}
              value={method}
              onChange={(event) => {
                if (isMethod(event.target.value)) setMethod(event.target.value);
              }}
            >
              {Object.entries(methodNames).map(([value, name]) => (
                <option key={value} value={value}>
                  {name}
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
        <Button type="submit" disabled={choose.isPending}>
          {choose.isPending ? 'Saving…' : 'Save method'}
        </Button>
      </form>
      {choose.isError && <ErrorMessage>{choose.error.message}</ErrorMessage>}
      <p className="text-muted-foreground text-sm">
        Tax years and days count in <strong>{settings.timeZone}</strong>.{' '}
        {settings.timeZone !== browserZone && (
          <Button
            type="button"
            variant="link"
            className="h-auto p-0"
            disabled={setTimeZone.isPending}
            onClick={() => setTimeZone.mutate(browserZone)}
          >
            Use this device&apos;s time zone ({browserZone})
          </Button>
        )}
      </p>
      {setTimeZone.isError && <ErrorMessage>{setTimeZone.error.message}</ErrorMessage>}
      <Link
        to={`/user/gains?year=${thisYear}`}
        className={buttonVariants({ variant: 'outline', className: 'w-fit' })}
      >
        <FileTextIcon aria-hidden />
        Gains report
      </Link>
    </CardContent>
  );
}

/**
 * Account settings: the cost-basis method (FIFO unless chosen), chosen from the next tax year on so that a
 * year already reported never changes, the time zone tax years count in, and the way to the gains report.
 */
export function CostBasisCard({ userId }: { userId: string }) {
  const settings = useTaxSettings(userId);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Cost basis and taxes</CardTitle>
        <CardDescription>
          How your sales are matched to what you bought, for the gains report. A change applies from the next
          tax year: the sales of this year and earlier keep the method they were matched by, so a report you
          have already used never changes.
        </CardDescription>
      </CardHeader>
      <QueryState
        query={settings}
        placeholder={<Skeleton className="mx-6 mb-6 h-24" />}
        errorMessage={TAX_SETTINGS_FAILED_MESSAGE}
      >
        {(data) => <CostBasisForm userId={userId} settings={data} />}
      </QueryState>
    </Card>
  );
}
