import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import type { wholeNumberSetting } from '../api/whole-number-setting';
import type { holdingPeriodFormSchema } from './setting-form-schemas';

/**
 * One whole-number setting's form (the security hold's hours, the holding period's days): the current value,
 * checked before it is sent, saved with a toast either way.
 */
export function WholeNumberSettingForm({
  setting,
  current,
  schema,
  label,
  formLabel,
  saveLabel,
  savedMessage,
}: {
  setting: ReturnType<typeof wholeNumberSetting>;
  current: number;
  /** The field's rules (its range, in the admin's words): one of setting-form-schemas.ts. */
  schema: typeof holdingPeriodFormSchema;
  label: string;
  /** The form's accessible name, when the page has several. */
  formLabel?: string;
  saveLabel: string;
  savedMessage: string;
}) {
  const update = setting.useUpdate();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<{ value: string }>({
    resolver: zodResolver(schema),
    defaultValues: { value: String(current) },
  });
  useEffect(() => reset({ value: String(current) }), [current, reset]);

  const submit = handleSubmit(async ({ value }) => {
    try {
      await update.mutateAsync(Number(value));
    } catch (error) {
      return toast.error(error instanceof Error ? error.message : String(error));
    }
    toast.success(savedMessage);
  });

  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label={formLabel}>
      <FormField label={label} error={errors.value?.message}>
        {(control) => <Input inputMode="numeric" {...control} {...register('value')} />}
      </FormField>
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? 'Saving…' : saveLabel}
      </Button>
    </form>
  );
}
