import { randomUUID } from 'node:crypto';

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** An HTML-only mail (Auth sends only HTML, as GoTrue) as plain text: links after their words, tags gone. */
export function textOfHtml(html: string): string {
  return html
    .replace(/<a\b[^>]*\bhref="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, '$2: $1')
    .replace(/<br\s*\/?>\s*|<\/(p|h\d|div|li|tr)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|[a-z]+);/gi, (whole, name: string) =>
      name.startsWith('#') ? String.fromCodePoint(Number(name.slice(1))) : (entities[name] ?? whole),
    )
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export interface MailMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Every link in the message, so a person or a test can follow it. */
  links: string[];
  sentAt: string;
}

/** The e-mails Auth and the functions' provider would send, kept in memory (newest last) and listed at `/mailbox`. */
export function createMailbox({ print }: { print: boolean }) {
  const messages: MailMessage[] = [];
  const capacity = 500;

  /** Keeps the message (its text made from its HTML when it has none); answers its id. */
  function send(mail: Omit<MailMessage, 'id' | 'sentAt' | 'links' | 'text'> & { text?: string }): string {
    const message = { ...mail, text: mail.text ?? textOfHtml(mail.html) };
    const links = [...message.text.matchAll(/https?:\/\/\S+/g)].map((match) => match[0]);
    const id = randomUUID();
    messages.push({ ...message, links, id, sentAt: new Date().toISOString() });
    if (messages.length > capacity) messages.shift();
    if (print) console.log(`\n[mailbox] to ${message.to}: ${message.subject}\n${message.text}\n`);
    return id;
  }

  function list(recipient?: string): MailMessage[] {
    const wanted = recipient?.toLowerCase();
    return wanted ? messages.filter((message) => message.to === wanted) : [...messages];
  }

  return { send, list };
}

export type Mailbox = ReturnType<typeof createMailbox>;
