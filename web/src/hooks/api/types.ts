// Request bodies the web app sends. The shapes of the gateway's answers are shared with it:
// `import type { … } from '@pod/contracts'` (libs/contracts/src/api).
import type { Provider } from '@pod/contracts';

export interface RegisterInput {
  email: string;
  password: string;
  confirmPassword: string;
  firstName: string;
  lastName: string;
}

export interface LoginInput {
  email: string;
  password: string;
}

export interface ConnectPrintifyInput {
  token: string;
  shopId: number | string;
  syncFromDate?: string;
}

export type ConnectableService = Provider;
