// What this address shows first, fetched while the app's entry script loads rather than after it has run:
// the landing page's largest paint (its dashboard preview), or the code of any other page (its area's
// layout and the page), from the list the build writes into index.html (vite.config.ts). At low priority:
// the entry script, needed first, keeps the bandwidth. Written into index.html (vite.config.ts), so the
// requests start without waiting for this file; the Content-Security-Policy allows it by its hash.
(function () {
  // The dev server builds nothing ahead, so it writes no list.
  var list = document.getElementById('route-chunks');
  var chunks = list ? JSON.parse(list.textContent) : null;
  var seen = {};

  /**
   * The app's way to fetch the code of every page under `prefix` ('/user/'), once a person is in that area:
   * fetched and compiled, not run (a page's code runs when it is opened), so the page on screen is not held
   * up. False without a list, where the app loads the pages itself.
   */
  window.preloadPagesUnder = function (prefix) {
    if (!chunks) return false;
    var files = [];
    Object.keys(chunks.routes).forEach(function (route) {
      if (route.indexOf(prefix) === 0) files = files.concat(chunks.routes[route]);
    });
    // Each link in a task of its own: a link starts its request as it is added (~5 ms at 4 x CPU), and
    // a dozen pages' links together, or even one page's, were a long task.
    (function next() {
      var file = files.shift();
      if (file === undefined) return;
      preloadFiles([file]);
      setTimeout(next, 0);
    })();
    return true;
  };

  // A stored session (supabase-js keeps it as sb-<project>-auth-token, src/lib/stored-session.ts) is
  // restored as soon as the entry runs: its client's code is fetched beside the entry, not after it.
  if (chunks && storesSession()) preloadFiles(chunks.session);

  var path = location.pathname.replace(/\/+$/, '');
  if (path === '') {
    preload({ rel: 'preload', as: 'image', href: '/dashboard-preview.png', fetchPriority: 'high' });
    return;
  }
  if (!chunks) return;
  var segments = path.split('/');
  ['/' + segments[1], '/' + segments[1] + '/' + segments[2]].forEach(function (route) {
    preloadFiles(chunks.routes[route] || []);
  });

  function preloadFiles(indexes) {
    indexes.forEach(function (index) {
      if (seen[index]) return;
      seen[index] = true;
      preload({
        rel: 'modulepreload',
        crossOrigin: '',
        href: '/' + chunks.files[index],
        fetchPriority: 'low',
      });
    });
  }

  function storesSession() {
    try {
      return Object.keys(localStorage).some(function (key) {
        return /^sb-.+-auth-token$/.test(key);
      });
    } catch (refused) {
      return false;
    }
  }

  function preload(attributes) {
    document.head.append(Object.assign(document.createElement('link'), attributes));
  }
})();
