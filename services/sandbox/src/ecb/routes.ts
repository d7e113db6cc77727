import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { applyFault, pathOf } from '../core/http';
import type { SandboxState } from '../core/state';
import { isoDate, latestPublishedDay } from './calendar';
import { formatRate, RateHistory, type RateDay } from './rates';

const HEADER = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
\t<gesmes:subject>Reference rates</gesmes:subject>
\t<gesmes:Sender>
\t\t<gesmes:name>European Central Bank</gesmes:name>
\t</gesmes:Sender>
\t<Cube>`;
const FOOTER = `\t</Cube>
</gesmes:Envelope>`;

export function dailyXml(day: RateDay): string {
  const cubes = day.rates.map(([code, value, decimals]) => `\t\t\t<Cube currency='${code}' rate='${formatRate(value, decimals, true)}'/>`).join('\n');
  return `${HEADER}\n\t\t<Cube time='${isoDate(day.day)}'>\n${cubes}\n\t\t</Cube>\n${FOOTER}`;
}

export function historyXml(days: RateDay[]): string {
  const lines = days.map(
    (day) => `<Cube time="${isoDate(day.day)}">${day.rates.map(([code, value, decimals]) => `<Cube currency="${code}" rate="${formatRate(value, decimals, false)}"/>`).join('')}</Cube>`,
  );
  return `${HEADER}\n${lines.join('\n')}\n${FOOTER}`;
}

export type EcbFile = 'daily' | '90d' | 'hist';

/** The three files for the day the clock says is the latest published one, cached per day. */
export function createEcbFiles(state: SandboxState): (file: EcbFile) => string {
  const history = new RateHistory(state.options.seed);
  const cache = new Map<string, string>();
  return (file) => {
    const latest = latestPublishedDay(state.nowMs());
    const key = `${file}@${latest}`;
    let body = cache.get(key);
    if (body === undefined) {
      if (file === 'daily') body = dailyXml(history.history(latest, latest)[0]);
      else if (file === '90d') body = historyXml(history.history(latest, latest - 90));
      else body = historyXml(history.history(latest));
      if (cache.size > 12) cache.clear();
      cache.set(key, body);
    }
    return body;
  };
}

/** The ECB's reference-rate files under /stats/eurofxref/. */
export function registerEcb(app: FastifyInstance, state: SandboxState, files: (file: EcbFile) => string): void {
  const serve = (file: EcbFile) => async (request: FastifyRequest, reply: FastifyReply) => {
    const fault = state.faults.take('ecb', pathOf(request), null);
    if (fault && applyFault(fault, request, reply)) return reply;
    return reply.type('text/xml').header('cache-control', 'max-age=300').send(files(file));
  };
  app.get('/stats/eurofxref/eurofxref-daily.xml', serve('daily'));
  app.get('/stats/eurofxref/eurofxref-hist-90d.xml', serve('90d'));
  app.get('/stats/eurofxref/eurofxref-hist.xml', serve('hist'));
}
