// The theme before the first paint: the one chosen with the toggle, else the system's (src/lib/theme.ts).
// A file rather than an inline script, so the Content-Security-Policy can forbid inline scripts.
(function () {
  var chosen = localStorage.getItem('theme');
  var dark = chosen ? chosen === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
  document.documentElement.classList.toggle('dark', dark);
})();
