/* global document, Worker */
// Paints the shell of index.html in the device's last language and with the club's cached title and
// colour, before the app starts, and starts loading the browser's date and number data on another
// thread (intl-warmup.js). A file, not an inline script: the Content-Security-Policy allows
// scripts from this origin only (server/src/http/securityHeaders.ts).
(function () {
  try {
    var lang = localStorage.getItem('language');
    if (lang === 'en') {
      document.documentElement.lang = 'en';
      document.getElementById('shell-text').textContent = 'Loading…';
    }
    var config = JSON.parse(localStorage.getItem('siteConfig') || 'null');
    if (config && config.site_title) {
      document.getElementById('shell-title').textContent = config.site_title;
      document.title = config.site_title;
    }
    if (config && /^#[0-9a-fA-F]{6}$/.test(config.theme_color || '')) {
      var bar = document.getElementById('shell-title');
      bar.style.background = config.theme_color;
      // The text colour that reads on it, as the app worked it out when it cached the configuration.
      if (/^#[0-9a-fA-F]{6}$/.test(config.on_theme || '')) bar.style.color = config.on_theme;
    }
  } catch {
    // storage blocked or a broken cache: the default shell stays
  }
  // The browser's date and number data, loaded on another thread while the app's code loads.
  try {
    var warmup = new Worker('/intl-warmup.js');
    warmup.postMessage({ language: lang === 'en' ? 'en' : 'de', timeZone: (config && config.time_zone) || '' });
  } catch {
    // no workers: the app loads the data itself when it first formats
  }
})();
