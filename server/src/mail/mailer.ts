import nodemailer, { type Transporter } from 'nodemailer';

/** One mail: plain text always, simple HTML when the template has it. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * Sends mail through SMTP_URL with nodemailer (docs/architecture.md, mail). Without SMTP_URL a
 * mail is written to the log instead, so a self-hosted club without a mail server still finds a
 * reset link in the server's output. Mails go out after the answer: `track` keeps the tasks under
 * way, so shutdown and tests can wait for them (`idle`).
 */
export class Mailer {
  private readonly transport: Transporter | null;
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly options: { smtpUrl: string | null; mailFrom: string },
    private readonly log: (line: string) => void = (line) => console.log(line),
  ) {
    this.transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null;
  }

  /** Whether mail really leaves the server (SMTP_URL is set). */
  get configured(): boolean {
    return this.transport !== null;
  }

  async send(mail: Mail): Promise<void> {
    if (!this.transport) {
      this.log(`── mail (SMTP_URL not set) ──\nTo: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.text}\n──`);
      return;
    }
    await this.transport.sendMail({ from: this.options.mailFrom, ...mail });
  }

  /** Runs work after the answer; a failure is logged (the caller has answered already). */
  track(task: Promise<unknown>): void {
    const held = task.catch((error: unknown) => console.error('Sending mail failed:', error));
    this.pending.add(held);
    void held.finally(() => this.pending.delete(held));
  }

  /** Resolves when every tracked task has settled. */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  close(): void {
    this.transport?.close();
  }
}
