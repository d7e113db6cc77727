import { escapeHtml as e } from '../core/http';
import { SCOPES } from './oauth-store';

/**
 * The sandbox's stand-in for www.etsy.com/oauth/connect. Plain HTML with no script at all (the
 * page is served under a CSP without script-src); every URL is relative, so the page also
 * works when the gateway proxies it under a path prefix.
 */
export const CONSENT_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action *; base-uri 'none'; frame-ancestors 'none'";

/**
 * The PodProfit look (the web app's slate greys, its violet brand colour and its system type
 * stack), written out here because the sandbox shares no code with the product.
 */
const STYLE = `
  :root { color-scheme: light; }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; font: 16px/1.5 ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; color: #1a1f36; background: #f6f9fc; }
  .top { display: flex; align-items: center; gap: .625rem; padding: .875rem 1.25rem; background: #fff; border-bottom: 1px solid #e3e8ee; }
  .mark { display: inline-flex; align-items: center; justify-content: center; width: 2rem; height: 2rem; border-radius: .5rem; background: linear-gradient(to bottom right, #7a70ff, #4237b5); color: #fff; flex-shrink: 0; }
  .name { font-weight: 700; font-size: 1.125rem; letter-spacing: -0.02em; }
  .tag { margin-left: .25rem; padding: .05rem .5rem; border-radius: 999px; background: #ebe9ff; color: #4237b5; font-size: .8125rem; font-weight: 600; letter-spacing: 0; }
  main { max-width: 36rem; margin: 2rem auto; padding: 0 1rem; }
  .card { padding: 1.75rem; background: #fff; border: 1px solid #e3e8ee; border-radius: .75rem; box-shadow: 0 1px 2px rgba(26, 31, 54, .06); }
  .card > :last-child { margin-bottom: 0; }
  .notice { margin: 0 0 1.25rem; padding: .75rem 1rem; border: 1px solid #d7d3ff; border-left: 4px solid #635bff; border-radius: .5rem; background: #f5f4ff; color: #362f8c; font-size: .9375rem; }
  h1 { font-size: 1.5rem; line-height: 1.25; letter-spacing: -0.01em; margin: 0 0 1rem; }
  h2 { font-size: 1.0625rem; margin: 1.5rem 0 .5rem; }
  ul { padding-left: 1.25rem; margin: .5rem 0; }
  li { margin: .25rem 0; }
  .who { padding: .75rem 1rem; background: #f6f9fc; border: 1px solid #e3e8ee; border-radius: .5rem; overflow-wrap: anywhere; }
  .actions { display: flex; gap: .75rem; margin-top: 1.5rem; flex-wrap: wrap; }
  button { font: inherit; font-weight: 600; min-height: 2.75rem; padding: .55rem 1.4rem; border-radius: .5rem; cursor: pointer; border: 1px solid #635bff; }
  .allow { background: #635bff; color: #fff; }
  .allow:hover { background: #5146e0; }
  .deny { background: #fff; color: #5146e0; border-color: #c1c9d2; }
  .deny:hover { background: #f6f9fc; }
  button:focus-visible, a:focus-visible, input:focus-visible { outline: 3px solid #7a70ff; outline-offset: 2px; }
  label { display: block; font-weight: 600; margin-bottom: .25rem; }
  input[type=text] { font: inherit; padding: .5rem .75rem; width: 100%; border: 1px solid #697386; border-radius: .375rem; }
  .hint { color: #4f566b; font-size: .9375rem; }
  a { color: #5146e0; font-weight: 600; }
  .error { margin: 0 0 1rem; padding: .75rem 1rem; border-left: 4px solid #b42318; background: #fef3f2; border-radius: .375rem; color: #912018; }
  footer { max-width: 36rem; margin: 0 auto 2rem; padding: 0 1rem; color: #4f566b; font-size: .875rem; }
  @media (max-width: 480px) { main { margin: 1rem auto; } .card { padding: 1.25rem; } h1 { font-size: 1.3125rem; } .actions button { flex: 1 1 100%; } }
`;

/** The PodProfit mark: a rounded square with a rising line (the web app's logo, drawn again here). */
const MARK = `<span class="mark" aria-hidden="true"><svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"><path d="M4 17l5-5 4 3 7-8"/><path d="M15 7h5v5"/></svg></span>`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${e(title)} · PodProfit sandbox</title>
<style>${STYLE}</style>
</head>
<body>
<header class="top">${MARK}<span class="name">PodProfit <span class="tag">sandbox</span></span></header>
<main>
<div class="card">
<p class="notice">This is the PodProfit sandbox standing in for Etsy. It is simulated: no real Etsy account or shop is involved.</p>
${body}
</div>
</main>
<footer>PodProfit sandbox · a stand-in for www.etsy.com/oauth/connect, for demos and tests</footer>
</body>
</html>
`;
}

export type OAuthParams = Record<
  'response_type' | 'client_id' | 'redirect_uri' | 'scope' | 'state' | 'code_challenge' | 'code_challenge_method',
  string
>;

function hidden(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([name, value]) => `<input type="hidden" name="${e(name)}" value="${e(value)}">`)
    .join('\n');
}

export function consentPage(input: {
  appName: string;
  params: OAuthParams;
  loginName: string;
  shopName: string;
  userId: number;
  consent: string;
  canSwitch?: boolean;
}): string {
  const scopes = input.params.scope.split(' ').filter(Boolean);
  // An empty sandbox_tenant asks for the picker, even when a proxy names a tenant in a header.
  const switchUrl = `connect?${new URLSearchParams({ ...input.params, sandbox_tenant: '' }).toString()}`;
  return page(
    `Allow ${input.appName} to access your Etsy account?`,
    `<h1>Allow <strong>${e(input.appName)}</strong> to access your Etsy account?</h1>
<p class="who">You are signed in as <strong>${e(input.loginName)}</strong>, owner of the shop <strong>${e(input.shopName)}</strong> (sandbox user ${input.userId}).
${input.canSwitch === false ? '' : `<a href="${e(switchUrl)}">Not you? Choose another sandbox seller.</a>`}</p>
<h2>${e(input.appName)} will be able to:</h2>
<ul>
${scopes.map((scope) => `<li>${e(SCOPES[scope] ?? scope)} <span class="hint">(${e(scope)})</span></li>`).join('\n')}
</ul>
<p class="hint">You can remove this access at any time. Choosing "Allow" sends you back to ${e(originOf(input.params.redirect_uri))}.</p>
<form method="post" action="connect/decision">
${hidden({ ...input.params, consent: input.consent })}
<div class="actions">
<button class="allow" type="submit" name="decision" value="allow">Allow access</button>
<button class="deny" type="submit" name="decision" value="deny">Deny</button>
</div>
</form>`,
  );
}

export function tenantPickerPage(input: { appName: string; params: OAuthParams; problem: string | null }): string {
  return page(
    'Choose a sandbox seller',
    `<h1>Which sandbox seller is connecting to <strong>${e(input.appName)}</strong>?</h1>
${input.problem ? `<p class="error" role="alert">${e(input.problem)}</p>` : ''}
<form method="get" action="connect">
${hidden(input.params)}
<label for="sandbox_tenant">Sandbox seller (tenant id)</label>
<input type="text" id="sandbox_tenant" name="sandbox_tenant" value="default" required autocomplete="off" aria-describedby="tenant-hint">
<p class="hint" id="tenant-hint">The sandbox's own seller is called "default". A PodProfit visitor's own seller is never offered here: Connect Etsy in the app opens this page for it.</p>
<div class="actions"><button class="allow" type="submit">Continue</button></div>
</form>`,
  );
}

export function errorPage(message: string): string {
  return page(
    'This connection request is not valid',
    `<h1>This connection request is not valid</h1>
<p class="error" role="alert">${e(message)}</p>
<p class="hint">Nothing was connected, and you have not been sent back to the app. Return to the app and start connecting again from there.</p>`,
  );
}

function originOf(uri: string): string {
  try {
    return new URL(uri).origin;
  } catch {
    return uri;
  }
}
