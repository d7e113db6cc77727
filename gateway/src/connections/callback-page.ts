import type { EtsyCallbackOutcome } from './etsy-connect.service';

const MESSAGES: Record<Extract<EtsyCallbackOutcome, { kind: 'rejected' }>['reason'], string> = {
  'missing-state': 'This Etsy connection link is incomplete.',
  'signed-out': 'Please sign in to PodProfit, then connect Etsy again.',
  unknown: 'This Etsy connection link is not valid.',
  'other-session': 'This Etsy connection was started in another session.',
  replayed: 'This Etsy connection link was already used.',
  expired: 'This Etsy connection link has expired.',
};

const escapeHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

/** The web app's slate greys, violet brand colour and type stack, as the sandbox's pages use them. */
const STYLE = `
  :root { color-scheme: light; }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; font: 16px/1.5 ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; color: #1a1f36; background: #f6f9fc; }
  .top { display: flex; align-items: center; gap: .625rem; padding: .875rem 1.25rem; background: #fff; border-bottom: 1px solid #e3e8ee; }
  .mark { display: inline-flex; align-items: center; justify-content: center; width: 2rem; height: 2rem; border-radius: .5rem; background: linear-gradient(to bottom right, #7a70ff, #4237b5); color: #fff; flex-shrink: 0; }
  .name { font-weight: 700; font-size: 1.125rem; letter-spacing: -0.02em; }
  main { max-width: 36rem; margin: 2rem auto; padding: 0 1rem; }
  .card { padding: 1.75rem; background: #fff; border: 1px solid #e3e8ee; border-radius: .75rem; box-shadow: 0 1px 2px rgba(26, 31, 54, .06); }
  .card > :last-child { margin-bottom: 0; }
  h1 { font-size: 1.5rem; line-height: 1.25; letter-spacing: -0.01em; margin: 0 0 1rem; }
  .error { margin: 0 0 1rem; padding: .75rem 1rem; border-left: 4px solid #b42318; background: #fef3f2; border-radius: .375rem; color: #912018; }
  p { line-height: 1.5; }
  .hint { color: #4f566b; }
  .action { display: inline-flex; align-items: center; min-height: 2.75rem; margin-top: .5rem; padding: .55rem 1.4rem; background: #635bff; color: #fff; border-radius: .5rem; text-decoration: none; font-weight: 600; }
  .action:hover { background: #5146e0; }
  .action:focus-visible { outline: 3px solid #7a70ff; outline-offset: 2px; }
  @media (max-width: 480px) { main { margin: 1rem auto; } .card { padding: 1.25rem; } h1 { font-size: 1.3125rem; } .action { display: flex; justify-content: center; } }
`;

const MARK = `<span class="mark" aria-hidden="true"><svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"><path d="M4 17l5-5 4 3 7-8"/><path d="M15 7h5v5"/></svg></span>`;

export interface ProblemPage {
  title: string;
  /** What went wrong, in the user's words (shown as an alert). */
  problem: string;
  /** What to do next. */
  advice: string;
  /** One link, always to our own app. */
  link: { href: `/${string}`; text: string };
}

/**
 * A page of ours (not the web app) about a connection that could not go on: the Etsy callback
 * and the demo's consent proxy. No script, no third-party URL, no user input echoed unescaped.
 */
export function problemPage(page: ProblemPage): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(page.title)} · PodProfit</title>
<style>${STYLE}</style>
</head>
<body>
<header class="top">${MARK}<span class="name">PodProfit</span></header>
<main>
<div class="card">
<h1>${escapeHtml(page.title)}</h1>
<p class="error" role="alert">${escapeHtml(page.problem)}</p>
<p class="hint">${escapeHtml(page.advice)}</p>
<a class="action" href="${escapeHtml(page.link.href)}">${escapeHtml(page.link.text)}</a>
</div>
</main>
</body>
</html>
`;
}

/**
 * The 400 page of a callback whose state check failed. It is a page, not a redirect with a
 * toast: a failed state check may be a forged request, and nothing about it is trusted.
 */
export function callbackRejectedPage(reason: Extract<EtsyCallbackOutcome, { kind: 'rejected' }>['reason']): string {
  return problemPage({
    title: 'Etsy connection failed',
    problem: MESSAGES[reason],
    advice: 'Nothing was connected. Go back to Connections and choose Connect Etsy to try again.',
    link: { href: '/connections', text: 'Back to Connections' },
  });
}
