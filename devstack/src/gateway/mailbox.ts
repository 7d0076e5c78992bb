import { randomUUID } from 'node:crypto';

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

  /** Keeps the message; answers its id. */
  function send(message: Omit<MailMessage, 'id' | 'sentAt' | 'links'>): string {
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
