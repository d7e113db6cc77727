import { Client } from 'pg';
import { GatewaySession } from '../support/gateway-session';

export interface BenchSessions {
  /** One `name=value` session cookie per signed-in seller, the biggest seller's first. */
  cookies: string[];
  /** The biggest seller's orders, and the orders of the sellers signed in, in all. */
  bigSellerOrders: number;
  signedInOrders: number;
}

/**
 * Sessions for `count` sellers, each signed in once through POST /api/auth/login (a password
 * hash each, so never under load): the seller with the most orders, and the others spread evenly
 * over the sellers ranked by orders, so busy and quiet ones share the load. The seeded sellers
 * have no password: a throwaway account is registered through the gateway and its hash given to them.
 */
export async function signInSellers(baseUrl: string, databaseUrl: string, count: number): Promise<BenchSessions> {
  await GatewaySession.register(baseUrl, 'bench-load-hash');
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const ranked = (
      await client.query<{ id: string; email: string; orders: string }>(
        `SELECT u.id, u.email, count(r.id) AS orders FROM app_user u LEFT JOIN order_record r ON r.user_id = u.id
         WHERE u.email LIKE '%@bench.example' GROUP BY u.id, u.email ORDER BY count(r.id) DESC, u.email`,
      )
    ).rows;
    const step = Math.max(1, (ranked.length - 1) / Math.max(1, count - 1));
    const chosen = [
      ...new Set(
        Array.from({ length: Math.min(count, ranked.length) }, (_, i) =>
          Math.min(ranked.length - 1, Math.round(i * step)),
        ),
      ),
    ].map((i) => ranked[i]);
    await client.query(
      `UPDATE app_user SET password_hash = (SELECT password_hash FROM app_user WHERE email LIKE 'bench-load-hash.%' ORDER BY created_at DESC LIMIT 1)
       WHERE id = ANY($1)`,
      [chosen.map((user) => user.id)],
    );
    const cookies: string[] = [];
    for (const user of chosen)
      cookies.push((await GatewaySession.signIn(baseUrl, user.email, GatewaySession.PASSWORD)).cookieHeader);
    return {
      cookies,
      bigSellerOrders: Number(chosen[0].orders),
      signedInOrders: chosen.reduce((sum, user) => sum + Number(user.orders), 0),
    };
  } finally {
    await client.end();
  }
}
