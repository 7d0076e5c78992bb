import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import {
  signUpErrorMessage,
  signUpInputSchema,
  signUpSucceededMessage,
  useSignUp,
  type SignUpInput,
} from '../api/sign-up';
import { CONFIRM_EMAIL_MESSAGE } from '../api/auth-messages';

/** Calls `onSuccess(true)` when the new account is signed in, `onSuccess(false)` when it must confirm its e-mail. */
export function SignupForm({ onSuccess }: { onSuccess: (signedIn: boolean) => void }) {
  const signUp = useSignUp();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignUpInput>({
    resolver: zodResolver(signUpInputSchema),
    defaultValues: { fullName: '', email: '', password: '', confirmPassword: '' },
  });

  const submit = handleSubmit(async (input) => {
    let walletCode: string | null;
    try {
      ({ walletCode } = await signUp.mutateAsync(input));
    } catch (error) {
      toast.error(signUpErrorMessage(error));
      return;
    }
    toast.success(walletCode ? signUpSucceededMessage(walletCode) : CONFIRM_EMAIL_MESSAGE);
    onSuccess(walletCode !== null);
  });

  return (
    <form noValidate onSubmit={submit} className="grid gap-4">
      <FormField label="Full name" error={errors.fullName?.message}>
        {(control) => <Input autoComplete="name" {...control} {...register('fullName')} />}
      </FormField>
      <FormField label="Email" error={errors.email?.message}>
        {(control) => <Input type="email" autoComplete="email" {...control} {...register('email')} />}
      </FormField>
      <FormField label="Password" error={errors.password?.message}>
        {(control) => <PasswordInput autoComplete="new-password" {...control} {...register('password')} />}
      </FormField>
      <FormField label="Confirm password" error={errors.confirmPassword?.message}>
        {(control) => (
          <Input type="password" autoComplete="new-password" {...control} {...register('confirmPassword')} />
        )}
      </FormField>
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? 'Creating account…' : 'Sign up'}
      </Button>
    </form>
  );
}
