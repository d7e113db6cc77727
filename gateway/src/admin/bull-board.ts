import { createHmac } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter as BullBoardFastifyAdapter } from '@bull-board/fastify';
import type { Queue } from 'bullmq';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '@pod/config';
import { QUEUE_NAMES, type QueueName } from '@pod/contracts';
import { isSameOrigin } from '../http/same-origin.guard';
import { helmetOptions } from '../http/security';
import { ApiException } from '../http/api-exception';
import { bearerToken, OPERATOR_CREDENTIAL_REQUIRED, sameSecret } from './operator.guard';
import type { OperatorThrottle } from './operator-throttle';

/** Where the board lives: under /api/admin, beside the JSON operator routes. */
export const BULL_BOARD_PATH = '/api/admin/bull-board';
/** The board's own session: a short-lived cookie, scoped to the board's path. */
export const BOARD_COOKIE_MAX_AGE_SECONDS = 3_600;
const LOGIN_PATH = `${BULL_BOARD_PATH}/login`;
const LOGOUT_PATH = `${BULL_BOARD_PATH}/logout`;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * The board's changes BULL_BOARD_MODE=retry lets through (paths under BULL_BOARD_PATH):
 * retrying failed jobs and promoting delayed ones, for one job or a whole queue. Every other
 * change the board offers is refused here, whatever the board itself would allow.
 */
const RETRY_MODE_ACTIONS = [
  /^\/api\/queues\/[^/]+\/(?:retry\/failed|promote)$/,
  /^\/api\/queues\/[^/]+\/[^/]+\/(?:retry|promote)$/,
];

/** Whether the board may carry out this request: reads always, changes only as BULL_BOARD_MODE allows. */
export function boardAllows(method: string, path: string, mode: AppConfig['BULL_BOARD_MODE']): boolean {
  if (SAFE_METHODS.has(method)) return true;
  if (mode !== 'retry' || method !== 'PUT' || !path.startsWith(`${BULL_BOARD_PATH}/`)) return false;
  const route = path.slice(BULL_BOARD_PATH.length);
  return RETRY_MODE_ACTIONS.some((pattern) => pattern.test(route));
}

export function boardCookieName(config: Pick<AppConfig, 'isProduction'>): string {
  return config.isProduction ? '__Secure-podprofit_board' : 'podprofit_board';
}

/**
 * `<expires>.<mac>`: an HMAC keyed by OPERATOR_TOKEN itself, so changing the token ends every
 * board session at once. Carries nothing else.
 */
export function boardCookieValue(operatorToken: string, expiresAtSeconds: number): string {
  return `${expiresAtSeconds}.${boardMac(operatorToken, expiresAtSeconds)}`;
}

export function isValidBoardCookie(value: string | undefined, operatorToken: string, nowSeconds: number): boolean {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value ?? '');
  if (!match) return false;
  const expiresAt = Number(match[1]);
  if (expiresAt <= nowSeconds || expiresAt > nowSeconds + BOARD_COOKIE_MAX_AGE_SECONDS) return false;
  return sameSecret(match[2], boardMac(operatorToken, expiresAt));
}

function boardMac(operatorToken: string, expiresAtSeconds: number): string {
  return createHmac('sha256', operatorToken)
    .update(`podprofit bull-board session ${expiresAtSeconds}`)
    .digest('base64url');
}

/** The gateway's CSP with one change the board needs: its page sets `<base href>` to its path. */
export function boardHelmetOptions(isProduction: boolean) {
  const { contentSecurityPolicy } = helmetOptions(isProduction);
  return {
    contentSecurityPolicy: {
      ...contentSecurityPolicy,
      directives: { ...contentSecurityPolicy.directives, baseUri: ["'self'"] },
    },
  };
}

/**
 * Bull Board (BullMQ's web UI) for operators at /api/admin/bull-board, every queue of the
 * contract table on it. Its routes are plain Fastify routes, outside Nest's guards, so this
 * scope does what OperatorGuard and the same-origin guard do for the JSON routes:
 * - OPERATOR_TOKEN unset: 404 for everything, as if the board did not exist.
 * - `Authorization: Bearer $OPERATOR_TOKEN` opens any board route (a browser extension or a
 *   proxy that adds the header, curl), and sets the board's cookie on the way.
 * - A browser without the header gets a sign-in form; POSTing the token to `login` sets the
 *   board's cookie (HttpOnly, SameSite=Strict, path-scoped, an hour) for the page, its assets
 *   and its API calls. A seller's session cookie is no credential here.
 * - Every change (PUT, POST, PATCH…) must come from our own origin (the same Sec-Fetch-Site/
 *   Origin check as every other state-changing route; a bearer call without cookies passes),
 *   so another site cannot drive the board through an operator's browser.
 * Register it before the web app's static files (SpaFallback): both use @fastify/static, and
 * the board's copy lives in this encapsulated scope.
 */
export async function registerBullBoard(
  fastify: FastifyInstance,
  config: Pick<AppConfig, 'OPERATOR_TOKEN' | 'isProduction' | 'publicOrigin' | 'BULL_BOARD_MODE'>,
  queueOf: (name: QueueName) => Queue,
  throttle: Pick<OperatorThrottle, 'assertAllowed' | 'recordRejected'>,
): Promise<void> {
  const serverAdapter = new BullBoardFastifyAdapter();
  serverAdapter.setBasePath(BULL_BOARD_PATH);
  createBullBoard({
    // The board's own read-only mode hides its buttons and refuses its changes; it also forbids
    // retries, so the retry mode opens the queues to the board and the gateway's check below
    // (boardAllows) lets through only retry (of failed jobs) and promote.
    queues: QUEUE_NAMES.map(
      (name) =>
        new BullMQAdapter(queueOf(name), {
          readOnlyMode: config.BULL_BOARD_MODE !== 'retry',
          allowRetries: config.BULL_BOARD_MODE === 'retry',
        }),
    ),
    serverAdapter,
    options: {
      uiConfig: {
        boardTitle: 'PodProfit queues',
        hideDocsLink: true,
        miscLinks: [{ text: 'Sign out', url: LOGOUT_PATH }],
      },
    },
  });
  const cookieName = boardCookieName(config);
  const cookieOptions = {
    httpOnly: true,
    sameSite: 'strict' as const,
    secure: config.isProduction,
    path: BULL_BOARD_PATH,
  };
  const helmet = boardHelmetOptions(config.isProduction);

  await fastify.register(async (scope) => {
    // Every board route gets the board's CSP (the rest of the gateway keeps the strict one).
    scope.addHook('onRoute', (route) => {
      route.config = { ...(route.config as object), helmet } as typeof route.config;
    });
    // The sign-in form posts a urlencoded body: accepted there only, as the gateway does for its one form.
    scope.removeContentTypeParser('application/x-www-form-urlencoded');
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (request, body, done) => {
      if (request.url.split('?')[0] === LOGIN_PATH) return done(null, body);
      done(Object.assign(new Error('Unsupported Media Type'), { statusCode: 415 }), undefined);
    });

    scope.addHook('onRequest', async (request, reply) => {
      const expected = config.OPERATOR_TOKEN;
      if (!expected) return sendError(reply, 404, 'not_found', 'Not Found');
      // As the global same-origin guard: a change must come from our origin, unless it carries
      // a bearer token and no cookie (a script, not a browser).
      if (!SAFE_METHODS.has(request.method) && !isSameOrigin(request, config.publicOrigin)) {
        return sendError(reply, 403, 'forbidden_origin', 'Cross-site requests are not allowed.');
      }
      const path = request.url.split('?')[0];
      if (path === LOGOUT_PATH || (path === LOGIN_PATH && request.method !== 'POST')) return;
      // As OperatorGuard: past the limit of wrong tokens the address waits, right token or not.
      if (!(await throttled(() => throttle.assertAllowed(request.ip, 'bull-board'), reply))) return reply;
      if (path === LOGIN_PATH) return;
      const presented = bearerToken(request.headers.authorization);
      if (presented !== null) {
        if (!sameSecret(presented, expected)) {
          if (!(await throttled(() => throttle.recordRejected(request.ip, 'bull-board'), reply))) return reply;
          return sendError(reply, 401, 'operator_credential_required', OPERATOR_CREDENTIAL_REQUIRED);
        }
        if (request.method === 'GET') setBoardCookie(reply, expected);
        return refuseUnlessAllowed(request, reply);
      }
      if (!isValidBoardCookie(request.cookies?.[cookieName], expected, nowSeconds())) {
        if (request.method === 'GET' && wantsPage(request)) return sendSignIn(reply, 401);
        return sendError(reply, 401, 'operator_credential_required', OPERATOR_CREDENTIAL_REQUIRED);
      }
      return refuseUnlessAllowed(request, reply);
    });

    function refuseUnlessAllowed(request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
      if (boardAllows(request.method, request.url.split('?')[0], config.BULL_BOARD_MODE)) return undefined;
      const message =
        config.BULL_BOARD_MODE === 'retry'
          ? 'Bull Board may only retry failed jobs and promote delayed ones.'
          : 'Bull Board is read-only (BULL_BOARD_MODE).';
      return sendError(reply, 403, 'bull_board_read_only', message);
    }

    scope.get(LOGIN_PATH, async (_request, reply) => sendSignIn(reply, 200));
    scope.post(LOGIN_PATH, async (request, reply) => {
      const token = new URLSearchParams(typeof request.body === 'string' ? request.body : '').get('token') ?? '';
      if (!token || !sameSecret(token, config.OPERATOR_TOKEN ?? '')) {
        if (token && !(await throttled(() => throttle.recordRejected(request.ip, 'bull-board'), reply))) return reply;
        return sendSignIn(reply, 401, 'That is not the operator token.');
      }
      setBoardCookie(reply, config.OPERATOR_TOKEN ?? '');
      return reply.redirect(`${BULL_BOARD_PATH}/`, 303);
    });
    scope.get(LOGOUT_PATH, async (_request, reply) => {
      void reply.clearCookie(cookieName, cookieOptions);
      return reply.redirect(LOGIN_PATH, 303);
    });

    await scope.register(serverAdapter.registerPlugin(), { prefix: BULL_BOARD_PATH });
  });

  function setBoardCookie(reply: FastifyReply, operatorToken: string): void {
    const expiresAt = nowSeconds() + BOARD_COOKIE_MAX_AGE_SECONDS;
    void reply.setCookie(cookieName, boardCookieValue(operatorToken, expiresAt), {
      ...cookieOptions,
      maxAge: BOARD_COOKIE_MAX_AGE_SECONDS,
    });
  }
}

/**
 * Runs a throttle step; when it refuses (429 with Retry-After) or cannot count (503, Redis
 * away), sends that answer as the JSON routes would and returns false.
 */
async function throttled(step: () => Promise<void>, reply: FastifyReply): Promise<boolean> {
  try {
    await step();
    return true;
  } catch (error) {
    if (!(error instanceof ApiException)) throw error;
    const status = error.getStatus();
    const retryAfter = (error as { retryAfterSeconds?: number }).retryAfterSeconds;
    if (retryAfter) void reply.header('Retry-After', String(retryAfter));
    const label = status === 429 ? 'Too Many Requests' : 'Service Unavailable';
    void reply
      .code(status)
      .type('application/json; charset=utf-8')
      .send({ statusCode: status, error: label, message: error.message, code: error.code });
    return false;
  }
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function wantsPage(request: FastifyRequest): boolean {
  return String(request.headers.accept ?? '').includes('text/html');
}

function sendError(reply: FastifyReply, statusCode: 401 | 403 | 404, code: string, message: string): FastifyReply {
  const error = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' }[statusCode];
  return reply.code(statusCode).type('application/json; charset=utf-8').send({ statusCode, error, message, code });
}

/** A page with one password field: the token travels in a POST body, never in a URL. */
function sendSignIn(reply: FastifyReply, statusCode: 200 | 401, problem?: string): FastifyReply {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>PodProfit queues: operator sign-in</title>
<style>body{font-family:system-ui,sans-serif;background:#f4f5f7;color:#1a202c;display:flex;justify-content:center;padding-top:15vh;margin:0}
main{background:#fff;border:1px solid #d9dde3;border-radius:8px;padding:2rem;width:22rem}h1{font-size:1.25rem;margin:0 0 1rem}
label{display:block;font-weight:600;margin-bottom:.5rem}input{width:100%;box-sizing:border-box;padding:.5rem;font:inherit;margin-bottom:1rem}
button{padding:.5rem 1rem;font:inherit;cursor:pointer}p.problem{color:#b42318}</style></head>
<body><main><h1>PodProfit queues</h1>
${problem ? `<p class="problem" role="alert">${problem}</p>` : '<p>Operators only: sign in with the operator token (OPERATOR_TOKEN).</p>'}
<form method="post" action="${LOGIN_PATH}"><label for="token">Operator token</label>
<input id="token" name="token" type="password" autocomplete="off" required autofocus>
<button type="submit">Open the board</button></form></main></body></html>`;
  return reply.code(statusCode).type('text/html; charset=utf-8').send(html);
}
