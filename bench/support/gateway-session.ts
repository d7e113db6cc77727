/**
 * A signed-in seller talking to a built gateway over HTTP, as the browser would: same-origin
 * headers on every write, the session cookie on every call.
 */
export class GatewaySession {
  private cookie = '';

  constructor(readonly baseUrl: string) {}

  /** The session cookie as a `cookie` header carries it (`name=value`), for another HTTP client. */
  get cookieHeader(): string {
    return this.cookie;
  }

  /** The password of every account a bench registers. */
  static readonly PASSWORD = 'Correct-Horse-7-Battery';

  static async register(baseUrl: string, label: string): Promise<GatewaySession> {
    const session = new GatewaySession(baseUrl);
    const password = GatewaySession.PASSWORD;
    const email = `${label}.${Date.now().toString(36)}@example.com`;
    const response = await session.call('POST', '/api/auth/register', {
      email,
      password,
      confirmPassword: password,
      firstName: 'Bench',
      lastName: 'Seller',
    });
    await session.keepCookie(response, 'register');
    return session;
  }

  /** Signs in to an existing account (POST /api/auth/login). */
  static async signIn(baseUrl: string, email: string, password: string): Promise<GatewaySession> {
    const session = new GatewaySession(baseUrl);
    await session.keepCookie(await session.call('POST', '/api/auth/login', { email, password }), 'login');
    return session;
  }

  private async keepCookie(response: Response, what: string): Promise<void> {
    const setCookie = response.headers.getSetCookie()[0];
    if (response.status !== 201 && response.status !== 200)
      throw new Error(`${what}: ${response.status} ${await response.text()}`);
    if (!setCookie) throw new Error(`${what}: no session cookie`);
    this.cookie = setCookie.split(';')[0];
  }

  async call(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = { cookie: this.cookie };
    if (method !== 'GET') Object.assign(headers, { origin: this.baseUrl, 'sec-fetch-site': 'same-origin' });
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(30_000),
    });
  }

  /** The call, which must answer `status`; its JSON body. */
  async json<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body: unknown, status: number): Promise<T> {
    const response = await this.call(method, path, body);
    const text = await response.text();
    if (response.status !== status) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 500)}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }
}
