import { formatMoney, type Language } from '@fankurve/shared';

/*
 * The push texts, German and English (the recipient's `language`), like the mail texts
 * (mail/templates.ts). Each says what happened in a title and a short body; `path` is where a tap
 * leads (PUBLIC_URL is put in front when the message is built).
 */

export interface PushText {
  title: string;
  body: string;
  path: string;
}

export interface EventInfo {
  id: string;
  title: string;
  /** Wall-clock `YYYY-MM-DD HH:MM:SS`. */
  date: string;
  location: string;
  ticketPriceCents: number;
}

/** At most this many characters of a comment in a notification. */
const EXCERPT = 140;

export function excerpt(text: string, max = EXCERPT): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length <= max ? flat : `${chars.slice(0, max - 1).join('')}…`;
}

const dateFormats = new Map<Language, Intl.DateTimeFormat>();

/** `01.03.2030, 15:30` / `1 Mar 2030, 15:30`: the event's wall-clock time as it is (no zone shift). */
export function formatEventDate(date: string, language: Language): string {
  let format = dateFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language === 'de' ? 'de-DE' : 'en-GB', {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: 'UTC',
    });
    dateFormats.set(language, format);
  }
  const parsed = new Date(`${date.slice(0, 19).replace(' ', 'T')}Z`);
  return Number.isNaN(parsed.getTime()) ? date : format.format(parsed);
}

export const eventPath = (eventId: string) => `/events/${encodeURIComponent(eventId)}`;
const commentPath = (eventId: string, commentId: string) => `${eventPath(eventId)}#comment-${encodeURIComponent(commentId)}`;

export function newEventText(language: Language, events: EventInfo[]): PushText {
  const de = language === 'de';
  if (events.length === 1) {
    const event = events[0]!;
    return {
      title: de ? 'Neues Spiel' : 'New match',
      body: `${event.title} · ${formatEventDate(event.date, language)} · ${event.location}`,
      path: eventPath(event.id),
    };
  }
  return {
    title: de ? `${events.length} neue Spiele` : `${events.length} new matches`,
    body: excerpt(events.map((event) => event.title).join(' · ')),
    path: '/events',
  };
}

export function eventChangedText(language: Language, event: EventInfo, fields: readonly string[]): PushText {
  const de = language === 'de';
  const parts: string[] = [];
  if (fields.includes('date')) parts.push(`${de ? 'Termin' : 'Date'}: ${formatEventDate(event.date, language)}`);
  if (fields.includes('location')) parts.push(`${de ? 'Ort' : 'Place'}: ${event.location}`);
  if (fields.includes('ticket_price_cents')) {
    const price =
      event.ticketPriceCents > 0 ? formatMoney(event.ticketPriceCents, language) : de ? 'noch offen' : 'to be announced';
    parts.push(`${de ? 'Ticketpreis' : 'Ticket price'}: ${price}`);
  }
  return {
    title: de ? `Geändert: ${event.title}` : `Changed: ${event.title}`,
    body: parts.length > 0 ? parts.join(' · ') : formatEventDate(event.date, language),
    path: eventPath(event.id),
  };
}

export function ticketBoughtText(language: Language, event: EventInfo, guestName: string | null): PushText {
  const de = language === 'de';
  const when = formatEventDate(event.date, language);
  let body: string;
  if (guestName) {
    body = de
      ? `Das Ticket deines Gastes ${guestName} für ${event.title} (${when}) wurde gekauft.`
      : `The ticket of your guest ${guestName} for ${event.title} (${when}) has been bought.`;
  } else {
    body = de
      ? `Dein Ticket für ${event.title} (${when}) wurde gekauft.`
      : `Your ticket for ${event.title} (${when}) has been bought.`;
  }
  return { title: de ? 'Ticket gekauft' : 'Ticket bought', body, path: '/my-tickets' };
}

export function requestAcceptedText(
  language: Language,
  event: EventInfo,
  kind: 'paid' | 'received',
  guestName: string | null,
): PushText {
  const de = language === 'de';
  const ticket = guestName
    ? de
      ? `Ticket deines Gastes ${guestName} für ${event.title}`
      : `ticket of your guest ${guestName} for ${event.title}`
    : de
      ? `Ticket für ${event.title}`
      : `ticket for ${event.title}`;
  if (kind === 'paid') {
    return {
      title: de ? 'Zahlung bestätigt' : 'Payment confirmed',
      body: de ? `Ein Admin hat bestätigt, dass das ${ticket} bezahlt ist.` : `An admin confirmed that the ${ticket} is paid.`,
      path: '/my-tickets',
    };
  }
  return {
    title: de ? 'Erhalt bestätigt' : 'Receipt confirmed',
    body: de
      ? `Ein Admin hat bestätigt, dass du das ${ticket} erhalten hast.`
      : `An admin confirmed that you received the ${ticket}.`,
    path: '/my-tickets',
  };
}

export function seatStatusText(
  language: Language,
  event: EventInfo,
  status: 'reserved' | 'waiting_list',
  guestName: string | null,
): PushText {
  const de = language === 'de';
  const whose = guestName ? (de ? `Der Platz deines Gastes ${guestName}` : `The seat of your guest ${guestName}`) : null;
  if (status === 'reserved') {
    return {
      title: de ? 'Platz reserviert' : 'Seat reserved',
      body: whose
        ? de
          ? `${whose} für die Fahrt zu ${event.title} ist reserviert.`
          : `${whose} for the trip to ${event.title} is reserved.`
        : de
          ? `Dein Platz für die Fahrt zu ${event.title} ist reserviert.`
          : `Your seat for the trip to ${event.title} is reserved.`,
      path: eventPath(event.id),
    };
  }
  return {
    title: de ? 'Warteliste' : 'Waiting list',
    body: whose
      ? de
        ? `${whose} für die Fahrt zu ${event.title} steht auf der Warteliste.`
        : `${whose} for the trip to ${event.title} is on the waiting list.`
      : de
        ? `Dein Platz für die Fahrt zu ${event.title} steht auf der Warteliste.`
        : `Your seat for the trip to ${event.title} is on the waiting list.`,
    path: eventPath(event.id),
  };
}

export interface CommentInfo {
  id: string;
  eventId: string;
  eventTitle: string;
  author: string;
  text: string;
}

export function mentionText(language: Language, comment: CommentInfo): PushText {
  const de = language === 'de';
  return {
    title: de ? `${comment.author} hat dich erwähnt` : `${comment.author} mentioned you`,
    body: `${comment.eventTitle}: ${excerpt(comment.text)}`,
    path: commentPath(comment.eventId, comment.id),
  };
}

export function commentText(language: Language, comment: CommentInfo): PushText {
  const de = language === 'de';
  return {
    title: de ? `Neuer Kommentar: ${comment.eventTitle}` : `New comment: ${comment.eventTitle}`,
    body: `${comment.author}: ${excerpt(comment.text)}`,
    path: commentPath(comment.eventId, comment.id),
  };
}

export function commentAnswerText(language: Language, comment: CommentInfo): PushText {
  const de = language === 'de';
  return {
    title: de ? 'Kommentar wartet auf Antwort' : 'Comment needs an answer',
    body: `${comment.author} (${comment.eventTitle}): ${excerpt(comment.text)}`,
    path: commentPath(comment.eventId, comment.id),
  };
}

export function registrationText(language: Language, user: { username: string; email: string }): PushText {
  const de = language === 'de';
  return {
    title: de ? 'Neue Registrierung' : 'New registration',
    body: de
      ? `${user.username} (${user.email}) wartet auf Freigabe.`
      : `${user.username} (${user.email}) is waiting for approval.`,
    path: '/admin/tasks',
  };
}

export function requestMadeText(
  language: Language,
  kind: 'paid' | 'received',
  username: string,
  event: EventInfo,
  guestName: string | null,
): PushText {
  const de = language === 'de';
  const what = guestName ? (de ? `${event.title} (Gast ${guestName})` : `${event.title} (guest ${guestName})`) : event.title;
  const when = formatEventDate(event.date, language);
  if (kind === 'paid') {
    return {
      title: de ? 'Neue Zahlungsmeldung' : 'New paid request',
      body: de ? `${username} meldet bezahlt: ${what}, ${when}` : `${username} reports paid: ${what}, ${when}`,
      path: '/admin/tasks',
    };
  }
  return {
    title: de ? 'Neue Erhalt-Meldung' : 'New received request',
    body: de ? `${username} meldet erhalten: ${what}, ${when}` : `${username} reports received: ${what}, ${when}`,
    path: '/admin/tasks',
  };
}

/** When an offer's window closes, in the recipient's language (the club's time zone: the event's). */
function formatInstant(iso: string, language: Language, timeZone: string): string {
  const format = new Intl.DateTimeFormat(language === 'de' ? 'de-DE' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  });
  return format.format(new Date(iso));
}

export function offerMadeText(
  language: Language,
  event: EventInfo,
  offer: { expiresAt: string; guestName: string | null; timeZone: string },
): PushText {
  const de = language === 'de';
  const until = formatInstant(offer.expiresAt, language, offer.timeZone);
  const whom = offer.guestName ? (de ? ` für deinen Gast ${offer.guestName}` : ` for your guest ${offer.guestName}`) : '';
  return {
    title: de ? 'Ticket frei geworden' : 'A ticket for you',
    body: de
      ? `Ein zurückgegebenes Ticket für ${event.title} ist${whom} für dich reserviert. Nimm es bis ${until} an.`
      : `A returned ticket for ${event.title} is waiting${whom}. Accept it by ${until}.`,
    path: eventPath(event.id),
  };
}

export function ticketTakenText(language: Language, event: EventInfo, guestName: string | null): PushText {
  const de = language === 'de';
  const ticket = guestName
    ? de
      ? `Das zurückgegebene Ticket deines Gastes ${guestName}`
      : `The returned ticket of your guest ${guestName}`
    : de
      ? 'Dein zurückgegebenes Ticket'
      : 'Your returned ticket';
  return {
    title: de ? 'Ticket übernommen' : 'Ticket taken',
    body: de
      ? `${ticket} für ${event.title} wurde übernommen. Du schuldest dafür nichts mehr.`
      : `${ticket} for ${event.title} has been taken. You owe nothing for it any more.`,
    path: '/my-tickets',
  };
}

/** A new poll (topic `news`): the question and its options, opening its event or the list of polls on /events. */
export function pollText(language: Language, poll: { question: string; options: string[]; eventId: string | null }): PushText {
  return {
    title: language === 'de' ? `Neue Umfrage: ${poll.question}` : `New poll: ${poll.question}`,
    body: excerpt(poll.options.join(' · ')),
    path: poll.eventId ? eventPath(poll.eventId) : '/events',
  };
}

/**
 * A reminder to answer (topic `reminders`; docs/product.md, Answer deadlines and reminders): before
 * the event, before its answer deadline (`deadline`, the club's wall clock), or an admin's by hand
 * (`manual`: naming the deadline when there is one), opening the event.
 */
export function reminderText(
  language: Language,
  event: EventInfo,
  kind: 'event' | 'deadline' | 'manual',
  deadline: string | null,
): PushText {
  const de = language === 'de';
  const when = formatEventDate(event.date, language);
  if ((kind === 'deadline' || kind === 'manual') && deadline) {
    const until = formatEventDate(deadline, language);
    return {
      title: de ? `Antwortfrist läuft ab: ${event.title}` : `Answer deadline soon: ${event.title}`,
      body: de
        ? `Antworten bis ${until}. ${event.title} am ${when}: bist du dabei?`
        : `Answer by ${until}. ${event.title} on ${when}: are you going?`,
      path: eventPath(event.id),
    };
  }
  return {
    title: de ? `Noch keine Antwort: ${event.title}` : `No answer yet: ${event.title}`,
    body: de
      ? `${event.title} am ${when}: bist du dabei? Sag zu oder ab.`
      : `${event.title} on ${when}: are you going? Let the club know.`,
    path: eventPath(event.id),
  };
}

/**
 * A reminder to pay (topic `payments`; docs/product.md, Tickets and money, "Reminders to pay"): what
 * the member owes, opening /my-tickets, where the GiroCode is. The second and third say "still".
 */
export function paymentReminderText(language: Language, owedCents: number, round: number): PushText {
  const de = language === 'de';
  const amount = formatMoney(owedCents, language);
  const again = round > 1;
  return {
    title: de
      ? again
        ? `Noch offen: ${amount}`
        : `Offener Betrag: ${amount}`
      : again
        ? `Still open: ${amount}`
        : `You owe ${amount}`,
    body: de
      ? `Du schuldest der Kasse ${amount}. Unter „Meine Tickets“ ist der GiroCode für die Überweisung.`
      : `You owe the club ${amount}. "My tickets" has the GiroCode for the transfer.`,
    path: '/my-tickets',
  };
}
