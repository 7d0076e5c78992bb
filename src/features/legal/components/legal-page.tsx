import { PublicContacts } from '@/components/layouts/public-contacts';
import type { LegalDocument } from '../content/legal-document';

const updatedFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

/** A readable legal page: summary, numbered sections and the company's contacts. */
export function LegalPage({ document }: { document: LegalDocument }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <header className="mb-10 border-b pb-8">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{document.title}</h1>
        <p className="text-muted-foreground mt-2 text-sm">
          Last updated{' '}
          <time dateTime={document.updated}>{updatedFormat.format(new Date(document.updated))}</time>
        </p>
        <p className="mt-6 text-lg leading-relaxed">{document.summary}</p>
      </header>

      <ol className="space-y-8">
        {document.sections.map((section, index) => (
          <li key={section.heading}>
            <section aria-labelledby={`section-${index + 1}`}>
              <h2 id={`section-${index + 1}`} className="mb-3 text-xl font-semibold">
                {index + 1}. {section.heading}
              </h2>
              <div className="text-muted-foreground space-y-3 leading-relaxed">
                {section.paragraphs.map((paragraph) => (
                  <p key={paragraph}>{paragraph}</p>
                ))}
              </div>
            </section>
          </li>
        ))}
      </ol>

      {/* Named apart from the footer's "Contact Us": two landmarks of one name cannot be told apart. */}
      <section aria-labelledby="legal-contact" className="bg-card mt-12 rounded-xl border p-6">
        <h2 id="legal-contact" className="mb-2 text-xl font-semibold">
          Questions about this page
        </h2>
        <p className="text-muted-foreground mb-4">Call or write to us:</p>
        <PublicContacts />
      </section>
    </article>
  );
}
