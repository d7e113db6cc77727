import { escapeHtml as e } from '../core/http';
import { SCOPES } from './oauth-store';

/**
 * The sandbox's stand-in for www.etsy.com/oauth/connect. Plain HTML with no script at all (the
 * page is served under a CSP without script-src); every URL is relative, so the page also
 * works when the gateway proxies it under a path prefix.
 */
export const CONSENT_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action *; base-uri 'none'; frame-ancestors 'none'";

const STYLE = `
  :root { color-scheme: light; }
  body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; background: #f6f4f0; }
  main { max-width: 34rem; margin: 2rem auto; padding: 2rem; background: #fff; border: 1px solid #d0cfcb; border-radius: 12px; }
  .badge { display: inline-block; margin: 0 0 1rem; padding: .15rem .6rem; border-radius: 999px; background: #fff1e6; color: #8a3200; font-size: .875rem; font-weight: 600; }
  h1 { font-size: 1.5rem; line-height: 1.25; margin: 0 0 1rem; }
  h2 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; }
  ul { padding-left: 1.25rem; }
  .who { padding: .75rem 1rem; background: #f6f4f0; border-radius: 8px; }
  .actions { display: flex; gap: .75rem; margin-top: 1.5rem; flex-wrap: wrap; }
  button { font: inherit; font-weight: 600; padding: .6rem 1.4rem; border-radius: 999px; cursor: pointer; border: 2px solid #1f2328; }
  .allow { background: #1f2328; color: #fff; }
  .deny { background: #fff; color: #1f2328; }
  button:focus-visible, a:focus-visible, input:focus-visible { outline: 3px solid #0b57d0; outline-offset: 2px; }
  label { display: block; font-weight: 600; margin-bottom: .25rem; }
  input[type=text] { font: inherit; padding: .5rem .75rem; width: 100%; box-sizing: border-box; border: 1px solid #6b6b6b; border-radius: 6px; }
  .hint { color: #4a4a4a; font-size: .9rem; }
  a { color: #0b57d0; }
  .error { border-left: 4px solid #b3261e; padding-left: 1rem; }
`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${e(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="badge">Etsy sandbox: simulated, not the real Etsy</p>
${body}
</main>
</body>
</html>
`;
}

export type OAuthParams = Record<'response_type' | 'client_id' | 'redirect_uri' | 'scope' | 'state' | 'code_challenge' | 'code_challenge_method', string>;

function hidden(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([name, value]) => `<input type="hidden" name="${e(name)}" value="${e(value)}">`)
    .join('\n');
}

export function consentPage(input: { appName: string; params: OAuthParams; tenantId: string; loginName: string; shopName: string; userId: number; consent: string; canSwitch?: boolean }): string {
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
${hidden({ ...input.params, sandbox_tenant: input.tenantId, consent: input.consent })}
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
<p class="hint" id="tenant-hint">The sandbox's own seller is called "default". The demo picks its seller for you.</p>
<div class="actions"><button class="allow" type="submit">Continue</button></div>
</form>`,
  );
}

export function errorPage(message: string): string {
  return page(
    'This connection request is not valid',
    `<h1>This connection request is not valid</h1>
<p class="error" role="alert">${e(message)}</p>
<p class="hint">The app that sent you here needs to fix its request. You have not been sent back to it.</p>`,
  );
}

function originOf(uri: string): string {
  try {
    return new URL(uri).origin;
  } catch {
    return uri;
  }
}
