// The theme before the first paint: the one chosen with the toggle, else the system's (src/lib/theme.ts).
// Written into index.html (vite.config.ts); the Content-Security-Policy allows it by its hash.
(function () {
  var chosen = localStorage.getItem('theme');
  var dark = chosen ? chosen === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
  document.documentElement.classList.toggle('dark', dark);
})();
