import { zodResolver } from '@hookform/resolvers/zod';
import { lazy, Suspense, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { logInErrorMessage, logInInputSchema, useLogIn, type LogInInput } from '../api/log-in';
import { LOG_IN_SUCCEEDED_MESSAGE } from '../api/auth-messages';

// The code step (and the two-factor client code) loads only for a person who has a second factor.
const SignInCodeStep = lazy(() =>
  import('./sign-in-code-step').then(({ SignInCodeStep: component }) => ({ default: component })),
);

export function LoginForm({ onSuccess }: { onSuccess: () => void }) {
  const logIn = useLogIn();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<LogInInput>({
    resolver: zodResolver(logInInputSchema),
    defaultValues: { email: '', password: '' },
  });

  const [codeStep, setCodeStep] = useState(false);
  const finish = () => {
    toast.success(LOG_IN_SUCCEEDED_MESSAGE);
    onSuccess();
  };

  const submit = handleSubmit(async (input) => {
    let codeNeeded: boolean;
    try {
      ({ codeNeeded } = await logIn.mutateAsync(input));
    } catch (error) {
      toast.error(logInErrorMessage(error));
      return;
    }
    if (codeNeeded) setCodeStep(true);
    else finish();
  });

  if (codeStep)
    return (
      <Suspense>
        <SignInCodeStep onVerified={finish} />
      </Suspense>
    );

  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <FormField label="Email" error={errors.email?.message}>
        {(control) => <Input type="email" autoComplete="email" {...control} {...register('email')} />}
      </FormField>
      <FormField label="Password" error={errors.password?.message}>
        {(control) => (
          <PasswordInput autoComplete="current-password" {...control} {...register('password')} />
        )}
      </FormField>
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? 'Logging in…' : 'Log in'}
      </Button>
    </form>
  );
}
