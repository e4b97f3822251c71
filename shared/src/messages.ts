/**
 * Every message the server sends, by code. The server answers `{ success: false, message, code }`
 * with the English text; the client translates by code (i18n key `serverMessages.<code>`) and falls
 * back to the text. SPEC.md section 8 names most of these texts.
 */
export const MESSAGES = {
  adminRequired: 'Admin access required',
  notSignedIn: 'Authentication required',
  sessionExpired: 'Session expired, please sign in again',
  mustChangePassword: 'You must change your password before continuing',
  forbidden: 'You are not allowed to do this',
  notFound: 'Not found',
  eventNotFound: 'Event not found',
  userNotFound: 'User not found',
  stadiumNotFound: 'Stadium not found',
  attendanceNotFound: 'Attendance not found',
  invalidInput: 'Invalid input',
  malformedJson: 'Malformed JSON in request body',
  bodyTooLarge: 'Request body too large',
  unsupportedMediaType: 'The request body must be JSON',
  tooManyLoginAttempts: 'Too many failed sign-in attempts. Please try again in 15 minutes.',
  invalidCredentials: 'Invalid username or password',
  accountPending: 'Your registration is waiting for approval by an admin',
  usernameTaken: 'Username already exists',
  emailTaken: 'Email already registered',
  passwordTooShort: 'Password must be at least 4 characters long',
  currentPasswordWrong: 'Current password is incorrect',
  registrationPending: 'Registration successful. An admin has to approve your account before you can sign in.',
  userApproved: 'User approved',
  userDeleted: 'User deleted',
  userAlreadyActive: 'User is already active',
  cannotDeleteSelf: 'You cannot delete your own account',
  passwordChanged: 'Password changed successfully',
  titleRequired: 'Title is required',
  dateRequired: 'A valid date is required',
  locationRequired: 'Location is required',
  priceInvalid: 'Ticket price must be a number of at least 0',
  unpaidDebts: 'You have unpaid tickets. Please pay them before signing up for another match.',
  ticketAlreadyBought: 'Your ticket has already been bought. Please ask an admin to remove your attendance.',
  hasTicketAndNeedsTicket: 'Needs ticket and has ticket cannot both be set',
  attendanceSaved: 'Attendance saved',
  attendanceRemoved: 'Attendance removed',
  outdatedClient: 'The app has been updated. Please reload.',
  unknownCollection: 'Unknown sync collection',
  internalError: 'Something went wrong. Please try again later.',
} as const;

export type MessageCode = keyof typeof MESSAGES;
