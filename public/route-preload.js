// What this address shows first, fetched while the app's entry script loads rather than after it has run:
// the landing page's largest paint (its dashboard preview), or the code of any other page (its area's
// layout and the page), from the list the build writes into index.html (vite.config.ts). At low priority:
// the entry script, needed first, keeps the bandwidth. A file rather than an inline script, so the
// Content-Security-Policy can forbid inline scripts.
(function () {
  var path = location.pathname.replace(/\/+$/, '');
  if (path === '') {
    preload({ rel: 'preload', as: 'image', href: '/dashboard-preview.png', fetchPriority: 'high' });
    return;
  }
  // The dev server builds nothing ahead, so it writes no list.
  var list = document.getElementById('route-chunks');
  if (!list) return;
  var chunks = JSON.parse(list.textContent);
  var segments = path.split('/');
  var wanted = ['/' + segments[1], '/' + segments[1] + '/' + segments[2]];
  var seen = {};
  wanted.forEach(function (route) {
    (chunks.routes[route] || []).forEach(function (index) {
      if (seen[index]) return;
      seen[index] = true;
      preload({
        rel: 'modulepreload',
        crossOrigin: '',
        href: '/' + chunks.files[index],
        fetchPriority: 'low',
      });
    });
  });

  function preload(attributes) {
    document.head.append(Object.assign(document.createElement('link'), attributes));
  }
})();
