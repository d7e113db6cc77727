import type { Clock } from '../http/clock';
import { MalformedResponseError } from '../http/errors';
import type { ProviderLogger } from '../http/logger';
import {
  createRequester,
  type FetchLike,
  type Requester,
  type RequestMetricsHook,
  type Timeouts,
} from '../http/request';
import type { RetryPolicy } from '../http/retry';
import { parseEcbCsv, parseEcbXml, type EcbRateDay } from './parse';
import { readZipEntry, ZipFormatError } from './zip';

export interface EcbClientConfig {
  /** The folder of the rate files (default https://www.ecb.europa.eu/stats/eurofxref; the sandbox's in demo mode and tests). */
  ratesUrl?: string;
  userAgent?: string;
  timeouts?: Partial<Timeouts>;
  retry?: Partial<RetryPolicy>;
  /** Cap on a downloaded body (default 32 MB: the full XML history is about 8 MB). */
  maxBodyBytes?: number;
  /** Cap on a file inflated out of a ZIP archive (default 64 MB; the history CSV is a few MB). */
  maxUnzippedBytes?: number;
}

export interface EcbClientDeps {
  fetch?: FetchLike;
  logger?: ProviderLogger;
  clock?: Clock;
  random?: () => number;
  metrics?: RequestMetricsHook;
}

export const ECB_DEFAULT_RATES_URL = 'https://www.ecb.europa.eu/stats/eurofxref';
const DEFAULT_USER_AGENT = 'PodProfit/1.0 (exchange rates)';

/** The ECB's reference-rate files (integrations.md §c.1). */
export const ECB_FILES = {
  /** The latest business day (XML). */
  daily: { path: '/eurofxref-daily.xml', kind: 'xml' },
  /** About the last 90 calendar days, newest first (XML). */
  last90Days: { path: '/eurofxref-hist-90d.xml', kind: 'xml' },
  /** Every day since 1999-01-04, newest first (XML). */
  history: { path: '/eurofxref-hist.xml', kind: 'xml' },
  /** The latest day as eurofxref.csv in a ZIP archive. */
  dailyZip: { path: '/eurofxref.zip', kind: 'zip', entry: 'eurofxref.csv' },
  /** The full history as eurofxref-hist.csv in a ZIP archive (the smallest download of it). */
  historyZip: { path: '/eurofxref-hist.zip', kind: 'zip', entry: 'eurofxref-hist.csv' },
} as const;

export type EcbFileName = keyof typeof ECB_FILES;

/**
 * The ECB feed: public files, no credentials, one host. Every call goes through the shared
 * request function (allow-listed host, no redirects, timeouts, retries with backoff honouring
 * Retry-After, typed ProviderErrors with provider 'ecb'); a body that is not the documented
 * format is a MalformedResponseError.
 */
export class EcbClient {
  private readonly request: Requester;
  private readonly maxUnzippedBytes: number;

  constructor(config: EcbClientConfig = {}, deps: EcbClientDeps = {}) {
    this.maxUnzippedBytes = config.maxUnzippedBytes ?? 64 * 1024 * 1024;
    this.request = createRequester(
      {
        provider: 'ecb',
        baseUrl: config.ratesUrl ?? ECB_DEFAULT_RATES_URL,
        timeouts: config.timeouts,
        retry: config.retry,
        maxBodyBytes: config.maxBodyBytes ?? 32 * 1024 * 1024,
        defaultHeaders: {
          'user-agent': config.userAgent ?? DEFAULT_USER_AGENT,
          accept: 'application/xml, text/xml, application/zip, */*',
        },
      },
      deps,
    );
  }

  /** One file's days, parsed and checked (newest first, as the ECB orders them). */
  async fetchRates(file: EcbFileName, signal?: AbortSignal): Promise<EcbRateDay[]> {
    const spec = ECB_FILES[file];
    if (spec.kind === 'xml') {
      const response = await this.request({ method: 'GET', path: spec.path, responseType: 'text', signal });
      return parseEcbXml(response.body as string);
    }
    const response = await this.request({ method: 'GET', path: spec.path, responseType: 'bytes', signal });
    let csv: Buffer;
    try {
      csv = readZipEntry(response.body as Buffer, (name) => name === spec.entry, this.maxUnzippedBytes).content;
    } catch (error) {
      if (error instanceof ZipFormatError)
        throw new MalformedResponseError('ecb', `ecb: ${spec.path}: ${error.message}`, response.status);
      throw error;
    }
    return parseEcbCsv(csv.toString('utf8'));
  }
}
