import type { EtsyCallbackOutcome } from './etsy-connect.service';

const MESSAGES: Record<Extract<EtsyCallbackOutcome, { kind: 'rejected' }>['reason'], string> = {
  'missing-state': 'This Etsy connection link is incomplete.',
  'signed-out': 'Please sign in to PodProfit, then connect Etsy again.',
  unknown: 'This Etsy connection link is not valid.',
  'other-session': 'This Etsy connection was started in another session.',
  replayed: 'This Etsy connection link was already used.',
  expired: 'This Etsy connection link has expired.',
};

/**
 * The 400 page of a callback whose state check failed. It is a page, not a redirect with a
 * toast: a failed state check may be a forged request, and nothing about it is trusted. No
 * script, no third-party URL; the only link goes back to our own Connections page.
 */
export function callbackRejectedPage(reason: Extract<EtsyCallbackOutcome, { kind: 'rejected' }>['reason']): string {
  const message = MESSAGES[reason];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Etsy connection failed · PodProfit</title>
<style>
  body { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; background: #f6f9fc; color: #1a1f36; margin: 0; }
  main { max-width: 28rem; margin: 12vh auto; padding: 2rem; background: #fff; border: 1px solid #e3e8ee; border-radius: 0.75rem; }
  h1 { font-size: 1.375rem; margin: 0 0 0.75rem; }
  p { color: #4f566b; line-height: 1.5; }
  a { display: inline-block; margin-top: 0.5rem; padding: 0.625rem 1rem; background: #635bff; color: #fff; border-radius: 0.375rem; text-decoration: none; font-weight: 600; }
  a:focus-visible { outline: 3px solid #7a70ff; outline-offset: 2px; }
</style>
</head>
<body>
<main>
<h1>Etsy connection failed</h1>
<p>${message} Nothing was connected. Go back to Connections and choose Connect Etsy to try again.</p>
<a href="/connections">Back to Connections</a>
</main>
</body>
</html>
`;
}
