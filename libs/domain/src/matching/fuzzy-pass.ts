import { utcDayNumberOf } from '../calendar';
import { scorePair } from './score';
import { nameKey, normalizeSku, normalizeText } from './similarity';
import type { MatchingOptions, MatchLine, PrintifyOrderToMatch, ReceiptToMatch } from './types';

export interface FuzzyPair {
  readonly receipt: ReceiptToMatch;
  readonly order: PrintifyOrderToMatch;
  /** Positions of the pair's sides in the arrays given. */
  readonly receiptIndex: number;
  readonly orderIndex: number;
  readonly score: number;
}

interface Edge {
  readonly r: number;
  readonly o: number;
  readonly score: number;
}

/**
 * The scored pass over the receipts and orders no earlier pass took. Inputs must be sorted by
 * key (the engine does it), which makes every step below independent of the callers' order.
 *
 * Candidates come from a hash join, never from all pairs: receipts are indexed by blocking key
 * (normalised buyer name, each SKU, each line title) and day, and each order looks up its own
 * keys over the days its date window covers. Only those candidates are scored.
 *
 * A pair is taken only when each is the other's best candidate and every other candidate of
 * either is more than `ambiguityMargin` behind: two look-alike orders never auto-match, and
 * the result is one-to-one by construction. Taken sides leave the graph and the rule runs again
 * on what is left, so a weaker pair is found once its rival is settled, never by stealing.
 */
export function fuzzyPairs(
  receipts: readonly ReceiptToMatch[],
  orders: readonly PrintifyOrderToMatch[],
  options: MatchingOptions,
): FuzzyPair[] {
  const edges = candidateEdges(receipts, orders, options);
  const takenR = new Set<number>();
  const takenO = new Set<number>();
  const pairs: FuzzyPair[] = [];
  for (;;) {
    const live = edges.filter((edge) => !takenR.has(edge.r) && !takenO.has(edge.o));
    const byReceipt = topTwo(live, (edge) => edge.r);
    const byOrder = topTwo(live, (edge) => edge.o);
    const clear = live.filter((edge) => {
      if (edge.score < options.reviewThreshold) return false;
      const [bestR, nextR] = byReceipt.get(edge.r)!;
      const [bestO, nextO] = byOrder.get(edge.o)!;
      const clearOf = (next: Edge | undefined) =>
        next === undefined || next.score < edge.score - options.ambiguityMargin;
      return bestR === edge && bestO === edge && clearOf(nextR) && clearOf(nextO);
    });
    if (clear.length === 0) break;
    for (const edge of clear) {
      takenR.add(edge.r);
      takenO.add(edge.o);
      pairs.push({
        receipt: receipts[edge.r],
        order: orders[edge.o],
        receiptIndex: edge.r,
        orderIndex: edge.o,
        score: edge.score,
      });
    }
  }
  return pairs;
}

function candidateEdges(
  receipts: readonly ReceiptToMatch[],
  orders: readonly PrintifyOrderToMatch[],
  options: MatchingOptions,
): Edge[] {
  const index = new Map<string, number[]>();
  receipts.forEach((receipt, r) => {
    const day = utcDayNumberOf(receipt.orderedAt);
    for (const key of blockingKeys(receipt.buyerName, receipt.lines)) {
      const bucket = `${key}\u001f${day}`;
      const list = index.get(bucket);
      if (list) list.push(r);
      else index.set(bucket, [r]);
    }
  });
  const edges: Edge[] = [];
  orders.forEach((order, o) => {
    const day = utcDayNumberOf(order.orderedAt);
    const seen = new Set<number>();
    for (const key of blockingKeys(order.buyerName, order.lines)) {
      // receipt day ∈ [order day − maxDaysAfter, order day + maxDaysBefore], one extra day each way for partial days.
      for (let d = day - Math.ceil(options.maxDaysAfter) - 1; d <= day + Math.ceil(options.maxDaysBefore) + 1; d += 1) {
        for (const r of index.get(`${key}\u001f${d}`) ?? []) {
          if (seen.has(r)) continue;
          seen.add(r);
          const score = scorePair(receipts[r], order, options);
          if (score > 0) edges.push({ r, o, score });
        }
      }
    }
  });
  return edges;
}

function blockingKeys(buyerName: string | null, lines: readonly MatchLine[]): string[] {
  const keys = new Set<string>();
  const name = nameKey(buyerName);
  if (name) keys.add(`n:${name}`);
  for (const line of lines) {
    const sku = normalizeSku(line.sku);
    if (sku) keys.add(`s:${sku}`);
    const title = normalizeText(line.title);
    if (title) keys.add(`t:${title}`);
  }
  return [...keys].sort();
}

/** Per side, its best and second-best edges (score, then the other side's index, which follows key order). */
function topTwo(edges: readonly Edge[], sideOf: (edge: Edge) => number): Map<number, [Edge, Edge | undefined]> {
  const top = new Map<number, [Edge, Edge | undefined]>();
  for (const edge of edges) {
    const side = sideOf(edge);
    const current = top.get(side);
    if (!current) top.set(side, [edge, undefined]);
    else if (better(edge, current[0])) top.set(side, [edge, current[0]]);
    else if (!current[1] || better(edge, current[1])) top.set(side, [current[0], edge]);
  }
  return top;
}

function better(a: Edge, b: Edge): boolean {
  if (a.score !== b.score) return a.score > b.score;
  return a.r !== b.r ? a.r < b.r : a.o < b.o;
}
