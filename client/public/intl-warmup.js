/* global self */
// Loads the data the app's dates, amounts, plurals and name sorting need (the browser's ICU) on a
// thread of its own while the app's code loads. The data is shared by the whole page, so the main
// thread's first date or amount no longer stops it for the 40–120 ms this took in Chromium on the
// bench machine (docs/architecture.md, Loading). Started by shell.js with the device's language and
// the club's cached time zone; it closes itself.
self.onmessage = function (event) {
  var data = event.data || {};
  var language = data.language === 'en' ? 'en' : 'de';
  try {
    new Intl.DateTimeFormat(language, {
      timeZone: data.timeZone || undefined,
      weekday: 'short',
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    }).format(0);
  } catch {
    // an unknown time zone: the app falls back to its default and formats on its own
  }
  try {
    new Intl.NumberFormat(language, { style: 'currency', currency: 'EUR' }).format(1);
    new Intl.PluralRules(language).select(1);
    new Intl.Collator('de', { sensitivity: 'base' }).compare('a', 'b');
  } catch {
    // nothing to warm: the main thread loads what it needs
  }
  self.close();
};
