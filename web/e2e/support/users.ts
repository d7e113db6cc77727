import { randomBytes } from 'node:crypto';

export interface TestUser {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

/** A unique, valid user for sign-up (password meets the server's 8-character policy). */
export function newTestUser(prefix = 'seller'): TestUser {
  const id = randomBytes(5).toString('hex');
  return {
    firstName: 'Avery',
    lastName: `Tester${id.slice(0, 4)}`,
    email: `${prefix}.${id}@example.com`,
    password: `Sunset-${id}-Tee!`,
  };
}
