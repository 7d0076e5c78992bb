// The landing page's largest paint (its dashboard preview) is fetched while the app's scripts load.
// A file rather than an inline script, so the Content-Security-Policy can forbid inline scripts.
if (location.pathname === '/') {
  const preload = Object.assign(document.createElement('link'), {
    rel: 'preload',
    as: 'image',
    href: '/dashboard-preview.png',
    fetchPriority: 'high',
  });
  document.head.append(preload);
}
