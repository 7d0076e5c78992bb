import { MailCheckIcon } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { QueryState } from '@/components/query-state';
import { useCodePrompt } from '@/components/two-factor-code-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Skeleton } from '@/components/ui/skeleton';
import { submitWithStepUp } from '@/lib/step-up';
import { useAntiPhishingPhrase, useSetAntiPhishingPhrase } from '../api/anti-phishing-phrase';

function PhraseForm({ saved }: { saved: string }) {
  const [phrase, setPhrase] = useState(saved);
  const setAntiPhishingPhrase = useSetAntiPhishingPhrase();
  const { askForCode, codeDialog } = useCodePrompt('Security settings change only after a code.');
  const change = async (next: string) => {
    try {
      await submitWithStepUp(() => setAntiPhishingPhrase.mutateAsync(next), askForCode);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Your anti-phishing phrase could not be saved');
      return;
    }
    setPhrase(next.trim());
    toast.success(
      next.trim() ? 'Anti-phishing phrase saved. We e-mailed you.' : 'Anti-phishing phrase removed',
    );
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void change(phrase);
  };
  return (
    <form onSubmit={submit} className="grid gap-3" aria-label="Anti-phishing phrase">
      {codeDialog}
      <p className="text-sm" data-testid="anti-phishing-phrase-state">
        {saved ? (
          <>
            Every e-mail from us starts with: <strong>{saved}</strong>
          </>
        ) : (
          'You have not chosen a phrase yet.'
        )}
      </p>
      <FormField label="Your phrase (4 to 40 characters)">
        {(control) => (
          <Input
            {...control}
            autoComplete="off"
            maxLength={40}
            value={phrase}
            onChange={(event) => setPhrase(event.target.value)}
          />
        )}
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={setAntiPhishingPhrase.isPending || phrase.trim() === saved}>
          Save phrase
        </Button>
        {saved && (
          <Button
            type="button"
            variant="outline"
            disabled={setAntiPhishingPhrase.isPending}
            onClick={() => void change('')}
          >
            Remove phrase
          </Button>
        )}
      </div>
    </form>
  );
}

/**
 * /user/account: the anti-phishing phrase, shown at the top of every e-mail CoinVault sends the person, so a
 * phishing e-mail (which cannot know it) stands out.
 */
export function AntiPhishingPhraseCard() {
  const phrase = useAntiPhishingPhrase();
  return (
    <Card className="w-full max-w-md">
      <CardHeader>
        <h2 className="flex items-center gap-2 text-xl font-semibold tracking-tight">
          <MailCheckIcon aria-hidden className="size-5" />
          Anti-phishing phrase
        </h2>
        <CardDescription>
          Choose words only you and CoinVault know. Every e-mail we send you starts with them. An e-mail that
          claims to be from CoinVault without your phrase is not from us: do not follow its links or enter
          your password. Never tell anyone your phrase; we will never ask for it.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState
          query={phrase}
          placeholder={<Skeleton className="h-16 w-full" />}
          errorMessage="Failed to load your anti-phishing phrase"
        >
          {(saved) => <PhraseForm key={saved} saved={saved} />}
        </QueryState>
      </CardContent>
    </Card>
  );
}
